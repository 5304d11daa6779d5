"""svc_client against a running platform, as the e2e test starts it.

Environment: SVC_TEST_URL, SVC_TEST_EMAIL and SVC_TEST_PASSWORD (a user whose personal namespace
is SVC_TEST_NAMESPACE), SVC_TEST_PACKAGE (a pack `tools` with echo, count, fail and nap-long
commands, published here through the SDK), SVC_TEST_ACCESS_TTL (the access tokens' lifetime in
seconds) and a command budget of 3 runs in 2 s per user.
"""

import asyncio
import http.server
import os
import secrets
import threading
import time
import unittest

from svc_client import (AsyncClient, AuthenticationError, Client, CommandError, NotFoundError, SvcTimeoutError,
                        TaskCancelled, TaskFailedError, verify_webhook)

URL = os.environ.get("SVC_TEST_URL", "")
EMAIL = os.environ.get("SVC_TEST_EMAIL", "")
PASSWORD = os.environ.get("SVC_TEST_PASSWORD", "")
NS = os.environ.get("SVC_TEST_NAMESPACE", "")


@unittest.skipUnless(URL, "SVC_TEST_URL not set")
class AgainstThePlatform(unittest.TestCase):
    retries: list = []
    tokens: list = []

    @classmethod
    def setUpClass(cls):
        cls.svc = Client(URL, on_retry=cls.retries.append, on_tokens=cls.tokens.append)
        cls.svc.sign_in(EMAIL, PASSWORD)
        cls.svc.enable_developer_mode(body={"organization": {"name": "Ada Py", "slug": f"ada-py-{secrets.token_hex(3)}"}})
        with open(os.environ["SVC_TEST_PACKAGE"], "rb") as f:
            published = cls.svc.packs_publish(f.read())
        assert published["pack"]["name"] == "tools", published
        cls.svc.packs_install(f"@{NS}/tools", "1.0.0")

    def test_signs_in_and_maps_errors_to_classes(self):
        self.assertEqual(self.svc.me()["email"], EMAIL)
        with self.assertRaises(NotFoundError) as caught:
            self.svc.storage_get("no-such-key")
        self.assertEqual(caught.exception.code, "NOT_FOUND")
        self.assertTrue(caught.exception.correlation_id)
        with self.assertRaises(AuthenticationError):
            Client(URL).sign_in(EMAIL, "not-the-password")

    def test_runs_sync_and_as_a_task_and_an_idempotency_key_twice_runs_once(self):
        self.assertEqual(self.svc.run(f"{NS}/echo", {"text": "hi"}), {"echoed": {"text": "hi"}})
        self.assertEqual(self.svc.run(f"@{NS}/echo", {"text": "task"}, run_async=True), {"echoed": {"text": "task"}})
        key = "py-" + secrets.token_hex(6)
        first = self.svc.start(f"{NS}/count", idempotency_key=key)
        again = self.svc.start(f"{NS}/count", idempotency_key=key)
        self.assertEqual((again["task_id"], again["replayed"], first["replayed"]), (first["task_id"], True, False))
        self.assertEqual(self.svc.run(f"{NS}/count", idempotency_key=key), self.svc.wait(first["task_id"])["result"])
        with self.assertRaises(CommandError) as failed:
            self.svc.run(f"{NS}/fail")
        self.assertEqual(failed.exception.code, "INTEGRATION_ERROR")
        with self.assertRaises(TaskFailedError) as failed_task:
            self.svc.run(f"{NS}/fail", run_async=True)
        self.assertEqual(failed_task.exception.task["status"], "failure")

    def test_cancels_a_task_by_hand_by_event_and_by_timeout(self):
        task = self.svc.start(f"{NS}/nap-long", {"ms": 60000})
        self.assertTrue(self.svc.cancel(task["task_id"])["revoked"])
        self.assertEqual(self.svc.wait(task["task_id"])["status"], "revoked")
        cancel = threading.Event()
        threading.Timer(0.3, cancel.set).start()
        with self.assertRaises(TaskCancelled) as stopped:
            self.svc.run(f"{NS}/nap-long", {"ms": 60000}, cancel=cancel)
        self.assertEqual(self.svc.get_task(stopped.exception.task_id)["status"], "revoked")
        with self.assertRaises(SvcTimeoutError) as late:
            self.svc.run(f"{NS}/nap-long", {"ms": 60000}, timeout=0.3)
        self.assertEqual(late.exception.code, "CLIENT_TIMEOUT")

    def test_keeps_a_storage_entry_lists_and_removes_it(self):
        self.assertTrue(self.svc.storage_put("notes", {"text": "remember"}, ttl=600)["created"])
        self.assertEqual(self.svc.storage_get("notes")["value"], {"text": "remember"})
        self.assertIn("notes", self.svc.storage_list(prefix="no")["keys"])
        self.svc.storage_delete("notes")
        with self.assertRaises(NotFoundError):
            self.svc.storage_get("notes")

    def test_waits_out_429s_as_retry_after_says(self):
        self.retries.clear()
        results = [self.svc.run(f"{NS}/echo", {"n": n}) for n in range(6)]
        self.assertEqual([r["echoed"]["n"] for r in results], list(range(6)))
        waited = [r for r in self.retries if r.status == 429]
        self.assertTrue(waited)
        self.assertTrue(all(1 <= r.wait_seconds <= 2 for r in waited), waited)

    def test_renews_an_expired_access_token_rotating_the_refresh_token(self):
        before = self.svc.session.tokens
        time.sleep(float(os.environ["SVC_TEST_ACCESS_TTL"]) + 0.5)
        self.assertEqual(self.svc.me()["email"], EMAIL)
        after = self.svc.session.tokens
        self.assertNotEqual(after.access_token, before.access_token)
        self.assertNotEqual(after.refresh_token, before.refresh_token)
        self.assertEqual(self.tokens[-1], after)
        login = Client(URL).login(body={"email": EMAIL, "password": PASSWORD})
        revived = Client(URL, access_token="not.a-valid.token", refresh_token=login["tokens"]["refreshToken"])
        self.assertEqual(revived.me()["email"], EMAIL)
        with self.assertRaises(AuthenticationError):
            Client(URL, refresh_token=login["tokens"]["refreshToken"]).me()

    def test_verifies_a_webhook_delivery(self):
        received = []

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                raw = self.rfile.read(int(self.headers["content-length"]))
                received.append((self.headers["svc-signature"], raw))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            hook = self.svc.webhooks_create(f"http://127.0.0.1:{server.server_address[1]}/hooks", ["command.executed"])
            self.svc.run(f"{NS}/echo", {"text": "hooked"})
            deadline = time.time() + 20
            while not received and time.time() < deadline:
                time.sleep(0.05)
            header, raw = received[0]
            self.assertTrue(verify_webhook(hook["secret"], header, raw))
            self.assertFalse(verify_webhook(hook["secret"], header, raw + b" "))
            self.assertTrue(self.svc.webhooks_deliveries(hook["id"]))
        finally:
            server.shutdown()

    def test_the_asyncio_client_runs_waits_and_cancels(self):
        async def scenario():
            aio = AsyncClient(URL)
            await aio.sign_in(EMAIL, PASSWORD)
            sync, task = await asyncio.gather(aio.run(f"{NS}/echo", {"n": 1}), aio.run(f"{NS}/echo", {"n": 2}, run_async=True))
            self.assertEqual((sync, task), ({"echoed": {"n": 1}}, {"echoed": {"n": 2}}))
            started = await aio.start(f"{NS}/nap-long", {"ms": 60000})
            await aio.cancel(started["task_id"])
            self.assertEqual((await aio.wait(started["task_id"]))["status"], "revoked")
            with self.assertRaises(SvcTimeoutError) as late:
                await aio.run(f"{NS}/nap-long", {"ms": 60000}, timeout=0.3)
            self.assertEqual((await aio.get_task(late.exception.details["task_id"]))["status"], "revoked")

        asyncio.run(scenario())


if __name__ == "__main__":
    unittest.main()
