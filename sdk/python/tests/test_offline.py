"""svc_client without a platform: errors, webhook signatures, and the method list against /openapi.json.

SVC_OPENAPI_JSON names the document to check against (the e2e test writes the running
platform's there); without it that test is skipped.
"""

import hashlib
import hmac
import inspect
import json
import os
import re
import time
import unittest

import svc_client
from svc_client import AsyncClient, Client, NotFoundError, RateLimitError, SvcError, ValidationError, verify_webhook
from svc_client.errors import error_of_response

EXCLUDED = {"getDocs", "getCliLoginPage", "mcpGet", "mcp", "mcpDelete", "getDashboardBundleFile", "getDashboardViewFile",
            "getSharedDashboardBundleFile", "receiveBillingEvent", "receiveRegistrationEvent"}


def snake(operation_id: str) -> str:
    return re.sub(r"([A-Z])([A-Z][a-z])", r"\1_\2", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", operation_id)).lower()


class Errors(unittest.TestCase):
    def test_maps_the_error_body_to_its_class(self):
        body = {"success": False, "error": {"type": "ValidationError", "code": "VALIDATION_FAILED", "message": "bad",
                                            "details": {"field": "key"}, "correlation_id": "c-1"}}
        err = error_of_response(400, {}, body, "GET /x")
        self.assertIsInstance(err, ValidationError)
        self.assertIsInstance(err, SvcError)
        self.assertEqual((err.status, err.code, err.details, err.correlation_id), (400, "VALIDATION_FAILED", {"field": "key"}, "c-1"))

    def test_a_reduced_body_gets_the_code_of_its_status(self):
        err = error_of_response(429, {"retry-after": "7", "x-request-id": "r-2"}, {"success": False, "error": {"message": "slow"}}, "POST /x")
        self.assertIsInstance(err, RateLimitError)
        self.assertEqual((err.code, err.retry_after, err.message, err.correlation_id), ("RATE_LIMITED", 7, "slow", "r-2"))
        self.assertIsInstance(error_of_response(404, {}, "not json", "GET /y"), NotFoundError)


class Webhooks(unittest.TestCase):
    secret = "whsec_" + "ab" * 32

    def sign(self, body: str, t: int) -> str:
        return f"t={t},v1=" + hmac.new(self.secret.encode(), f"{t}.{body}".encode(), hashlib.sha256).hexdigest()

    def test_accepts_the_platform_signature_over_the_raw_body(self):
        body = '{"id":"e1","type":"webhook.ping"}'
        header = self.sign(body, int(time.time()))
        self.assertTrue(verify_webhook(self.secret, header, body))
        self.assertTrue(verify_webhook(self.secret, header, body.encode()))

    def test_refuses_a_changed_body_another_secret_an_old_time_and_garbage(self):
        body = '{"id":"e1"}'
        header = self.sign(body, int(time.time()))
        self.assertFalse(verify_webhook(self.secret, header, body + " "))
        self.assertFalse(verify_webhook(self.secret + "x", header, body))
        self.assertFalse(verify_webhook(self.secret, self.sign(body, int(time.time()) - 301), body))
        for bad in ["", "t=abc,v1=00", "v1=00", "t=1", None]:
            self.assertFalse(verify_webhook(self.secret, bad, body))


class MethodList(unittest.TestCase):
    @unittest.skipUnless(os.environ.get("SVC_OPENAPI_JSON"), "SVC_OPENAPI_JSON not set")
    def test_has_a_method_for_every_operation_of_the_document_and_no_other(self):
        with open(os.environ["SVC_OPENAPI_JSON"], encoding="utf-8") as f:
            doc = json.load(f)
        documented = {}
        for path, item in doc["paths"].items():
            for method in ("get", "put", "post", "delete", "patch"):
                op = item.get(method)
                if op and op["operationId"] not in EXCLUDED:
                    documented[snake(op["operationId"])] = (method.upper(), path, tuple(p["name"] for p in op.get("parameters", []) if p["in"] == "path"))
        generated = {name: (op.method, op.path, op.path_params) for name, op in svc_client.OPERATIONS.items()}
        self.assertEqual(generated, documented)
        self.assertEqual(svc_client.API_VERSION, doc["info"]["version"])
        for name in documented:
            self.assertTrue(callable(getattr(Client, name)), name)
            self.assertTrue(inspect.iscoroutinefunction(getattr(AsyncClient, name)), name)

    @unittest.skipUnless(os.environ.get("SVC_OPENAPI_JSON"), "SVC_OPENAPI_JSON not set")
    def test_has_a_typed_dict_for_every_schema_of_the_document_with_its_fields(self):
        with open(os.environ["SVC_OPENAPI_JSON"], encoding="utf-8") as f:
            doc = json.load(f)
        for name, schema in doc["components"]["schemas"].items():
            self.assertTrue(hasattr(svc_client.schemas, name), name)
            if "properties" in schema:
                self.assertEqual(set(getattr(svc_client.schemas, name).__annotations__), set(schema["properties"]), name)
                self.assertEqual(set(svc_client.schemas.REQUIRED[name]), set(schema.get("required", [])), name)


if __name__ == "__main__":
    unittest.main()
