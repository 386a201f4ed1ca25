"""A stand-in for requests.Session that MSAL Python's benchmarks hand to it as http_client, so nothing leaves the
process: OpenID discovery for the tenant the URL names, and client-credentials grants, counted."""
import json
import threading

HOST = "https://login.microsoftonline.com/"
ACCESS_TOKEN = "eyJhbGciOiJub25lIn0.eyJyb2xlcyI6WyJVc2VyLlJlYWQuQWxsIl19.c2ln"


class Response:
    def __init__(self, body):
        self.status_code = 200
        self.text = json.dumps(body)
        self.headers = {"Content-Type": "application/json"}

    def raise_for_status(self):
        pass


class Stub:
    """requests.Session's get/post: OpenID discovery and client-credentials grants for the tenant in the URL."""

    def __init__(self):
        self.token_requests = 0
        self.lock = threading.Lock()

    def get(self, url, **kwargs):
        base = HOST + url[len(HOST):].split("/")[0]
        return Response({"issuer": base + "/v2.0", "authorization_endpoint": base + "/oauth2/v2.0/authorize",
                         "token_endpoint": base + "/oauth2/v2.0/token"})

    def post(self, url, **kwargs):
        with self.lock:
            self.token_requests += 1
        return Response({"token_type": "Bearer", "expires_in": 3599, "ext_expires_in": 3599,
                         "access_token": ACCESS_TOKEN})

    def close(self):
        pass
