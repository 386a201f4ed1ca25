"""MSAL Python's app-token cache hit: acquire_token_for_client answered from its in-memory cache.

Usage: python msal_python_client_credentials.py SECONDS
A stub HTTP client answers discovery and one client-credentials grant, so nothing leaves the process; the
first call fills the cache, then calls are timed one by one for SECONDS.
Prints {"median_us": …, "p99_us": …, "token_requests": N}.
"""
import json
import statistics
import sys
import time

import msal

from stub_identity_platform import HOST, Stub

TENANT = "8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b"
CLIENT = "2c9e5b7a-8f14-4d3c-b6a9-7e0d1f2c3b45"
BASE = HOST + TENANT
SCOPES = ["https://graph.microsoft.com/.default"]


seconds = float(sys.argv[1])
stub = Stub()
app = msal.ConfidentialClientApplication(CLIENT, client_credential="bench-secret", authority=BASE,
                                         http_client=stub, instance_discovery=False)
assert "access_token" in app.acquire_token_for_client(SCOPES)
samples = []
deadline = time.perf_counter() + seconds
while time.perf_counter() < deadline or len(samples) < 100:
    start = time.perf_counter()
    result = app.acquire_token_for_client(SCOPES)
    samples.append(time.perf_counter() - start)
    assert result.get("token_source") == "cache", result
samples.sort()
print(json.dumps({"median_us": statistics.median(samples) * 1e6, "p99_us": samples[len(samples) * 99 // 100] * 1e6,
                  "token_requests": stub.token_requests}))
