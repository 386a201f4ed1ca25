"""MSAL Python's silent token hit: acquire_token_silent answered from an in-memory cache.

Usage: python msal_python_silent.py FILE SECONDS
FILE is the cache msal-bench wrote (N accounts of one app); the account in the middle asks for
User.Read, a strict subset of its cached token's scopes ("subset"), and for exactly the cached
resource scopes ("exact"). Prints {"subset_us": median, "exact_us": median, "accounts": N}.
Discovery is answered by a stub HTTP client, so nothing leaves the process.
"""
import json
import statistics
import sys
import time

import msal

from stub_identity_platform import Response

TENANT = "8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b"
CLIENT = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
BASE = "https://login.microsoftonline.com/" + TENANT


class DiscoveryOnly:
    """requests.Session's get/post, answering OpenID discovery only."""

    def get(self, url, **kwargs):
        return Response({"issuer": BASE + "/v2.0", "authorization_endpoint": BASE + "/oauth2/v2.0/authorize",
                         "token_endpoint": BASE + "/oauth2/v2.0/token",
                         "device_authorization_endpoint": BASE + "/oauth2/v2.0/devicecode"})

    def post(self, url, **kwargs):
        raise RuntimeError("no network in this benchmark: " + url)

    def close(self):
        pass


def median_us(call, seconds):
    samples = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(samples) < 5:
        start = time.perf_counter()
        result = call()
        samples.append(time.perf_counter() - start)
        assert result and "access_token" in result, result
    return statistics.median(samples) * 1e6


path, seconds = sys.argv[1], float(sys.argv[2])
cache = msal.SerializableTokenCache()
with open(path) as f:
    cache.deserialize(f.read())
count = len(cache._cache.get("Account", {}))
app = msal.PublicClientApplication(CLIENT, authority=BASE, token_cache=cache, http_client=DiscoveryOnly(),
                                   instance_discovery=False)
middle = count // 2
username = "user%d@contoso.onmicrosoft.com" % middle
account = [a for a in app.get_accounts() if a["username"] == username][0]
subset = median_us(lambda: app.acquire_token_silent(["User.Read"], account=account), seconds)
exact = median_us(lambda: app.acquire_token_silent(["User.Read", "email"], account=account), seconds)
print(json.dumps({"subset_us": subset, "exact_us": exact, "accounts": count}))
