"""svc_client without a platform: errors, webhook signatures, and the method list against /openapi.json.

SVC_OPENAPI_JSON names the document to check against (the e2e test writes the running
platform's there); without it that test is skipped.
"""

import hashlib
import hmac
import http.server
import inspect
import json
import os
import re
import threading
import time
import unittest

import svc_client
from svc_client import (AsyncClient, Client, NotFoundError, RateLimitError, ServiceUnavailableError, SvcError, ValidationError,
                        verify_webhook)
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


class ScriptedServer:
    """A local HTTP server answering from a script of (status, headers, body), keeping what it was sent."""

    def __init__(self):
        self.script = []
        self.seen = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self):
                length = int(self.headers.get("content-length") or 0)
                outer.seen.append((self.command, self.path, self.headers.get("authorization"), self.rfile.read(length).decode()))
                status, headers, body = outer.script.pop(0) if outer.script else (200, {}, {"data": {"ok": True}})
                raw = json.dumps(body).encode()
                self.send_response(status)
                for name, value in {"content-type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_PUT = do_DELETE = _answer

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


UNAVAILABLE = (503, {"retry-after": "0"}, {"success": False, "error": {"code": "SERVICE_UNAVAILABLE", "message": "busy"}})


class Transport(unittest.TestCase):
    def setUp(self):
        self.server = ScriptedServer()
        self.addCleanup(self.server.close)

    def test_sends_a_get_again_after_a_503_with_the_api_key_each_time(self):
        self.server.script = [UNAVAILABLE, UNAVAILABLE]
        svc = Client(self.server.url, api_key="sk-svc-abc")
        self.assertEqual(svc.storage_get("k"), {"ok": True})
        self.assertEqual([s[2] for s in self.server.seen], ["Bearer sk-svc-abc"] * 3)

    def test_never_sends_a_post_twice_without_an_idempotency_key_and_does_with_one(self):
        self.server.script = [UNAVAILABLE]
        svc = Client(self.server.url, api_key="sk-svc-abc")
        with self.assertRaises(ServiceUnavailableError):
            svc.run("acme/echo", {"a": 1})
        self.assertEqual(len(self.server.seen), 1)
        self.server.script = [UNAVAILABLE, (200, {}, {"data": {"result": {"a": 1}}})]
        self.assertEqual(svc.run("acme/echo", {"a": 1}, idempotency_key="once"), {"a": 1})
        self.assertEqual([s[3] for s in self.server.seen[1:]], ['{"a": 1}', '{"a": 1}'])

    def test_waits_out_a_429_but_not_past_max_retry_wait(self):
        limited = lambda after: (429, {"retry-after": after}, {"success": False, "error": {"message": "slow down"}})  # noqa: E731
        retries = []
        svc = Client(self.server.url, api_key="sk-svc-abc", max_retries=2, max_retry_wait=5, on_retry=retries.append)
        self.server.script = [limited("1"), (200, {}, {"data": {"result": 1}})]
        started = time.monotonic()
        self.assertEqual(svc.run("acme/echo"), 1)
        self.assertGreaterEqual(time.monotonic() - started, 0.95)
        self.assertEqual([(r.status, r.wait_seconds, r.method) for r in retries], [(429, 1.0, "POST")])
        self.server.script = [limited("3600")]
        with self.assertRaises(RateLimitError) as refused:
            svc.run("acme/echo")
        self.assertEqual((refused.exception.code, refused.exception.retry_after), ("RATE_LIMITED", 3600))

    def test_renews_once_on_a_401_rotating_the_refresh_token(self):
        self.server.script = [
            (401, {}, {"success": False, "error": {"code": "AUTHENTICATION_FAILED", "message": "expired"}}),
            (200, {}, {"data": {"accessToken": "new-access", "refreshToken": "new-refresh", "expiresAt": (time.time() + 900) * 1000}}),
        ]
        svc = Client(self.server.url, access_token="old-access", refresh_token="old-refresh")
        self.assertEqual(svc.storage_get("k"), {"ok": True})
        self.assertEqual([(s[0], s[1], s[2]) for s in self.server.seen],
                         [("GET", "/api/v1/storage/k", "Bearer old-access"), ("POST", "/api/v1/auth/refresh", None),
                          ("GET", "/api/v1/storage/k", "Bearer new-access")])
        self.assertEqual(json.loads(self.server.seen[1][3]), {"refreshToken": "old-refresh"})
        self.assertEqual((svc.session.tokens.access_token, svc.session.tokens.refresh_token), ("new-access", "new-refresh"))

    def test_refreshes_once_for_threads_that_find_the_token_expired_together(self):
        self.server.script = [(200, {}, {"data": {"accessToken": "fresh", "refreshToken": "r2", "expiresAt": (time.time() + 900) * 1000}})]
        svc = Client(self.server.url, refresh_token="r1")
        threads = [threading.Thread(target=svc.storage_get, args=(key,)) for key in "abc"]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(len([s for s in self.server.seen if s[1] == "/api/v1/auth/refresh"]), 1)
        self.assertEqual([s[2] for s in self.server.seen if s[1].startswith("/api/v1/storage/")], ["Bearer fresh"] * 3)


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
