"""The real MSAL Python (and msal-extensions) sharing a token cache file with swift-msal.

Usage:
  python msal_python_cache.py silent-from-file CACHE AUTHORITY CLIENT_ID CA_PEM [SCOPE]
      Loads CACHE, takes the token (for SCOPE, User.Read by default) for its account from the cache, then
      refreshes it with the refresh token, and writes the cache back.
  python msal_python_cache.py ropc-to-file CACHE AUTHORITY CLIENT_ID CA_PEM USER PASSWORD
      Signs in with username/password and writes the cache to CACHE.
  python msal_python_cache.py hammer CACHE COUNT
      Prints "ready" on stderr, then adds COUNT accounts (py-0 … py-N) through msal-extensions'
      PersistedTokenCache on CACHE, as Azure CLI does, reading the file between writes and printing
      "wrote N" on stderr after each (adding again when msal-extensions' 5 s lock wait runs out).

Each prints one JSON object on stdout.
"""
import base64
import json
import os
import sys
from urllib.parse import urlparse

import msal


def app_for(authority, client_id, ca, cache):
    # MSAL Python's user realm discovery drops the authority's port (msal 1.39); skip it for this host.
    msal.authority.Authority._domains_without_user_realm_discovery.add(urlparse(authority).hostname)
    return msal.PublicClientApplication(client_id, authority=authority, verify=ca, instance_discovery=False, token_cache=cache)


def load(path):
    cache = msal.SerializableTokenCache()
    with open(path) as f:
        cache.deserialize(f.read())
    return cache


def save(cache, path):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(cache.serialize())


def summary(result):
    if result is None:
        return None
    return {"token_source": result.get("token_source"), "error": result.get("error"),
            "has_access_token": "access_token" in result, "error_description": result.get("error_description")}


def silent_from_file(path, authority, client_id, ca, scope="User.Read"):
    cache = load(path)
    app = app_for(authority, client_id, ca, cache)
    accounts = app.get_accounts()
    if not accounts:
        return {"accounts": [], "sections": {k: len(v) for k, v in json.load(open(path)).items() if isinstance(v, dict)}}
    cached = app.acquire_token_silent([scope], account=accounts[0])
    refreshed = app.acquire_token_silent([scope], account=accounts[0], force_refresh=True)
    if cache.has_state_changed:
        save(cache, path)
    return {"accounts": [{"username": a["username"], "home_account_id": a["home_account_id"], "environment": a["environment"]} for a in accounts],
            "cached": summary(cached), "refreshed": summary(refreshed)}


def ropc_to_file(path, authority, client_id, ca, user, password):
    cache = msal.SerializableTokenCache()
    app = app_for(authority, client_id, ca, cache)
    result = app.acquire_token_by_username_password(user, password, scopes=["User.Read"])
    save(cache, path)
    return {"result": summary(result), "accounts": [a["username"] for a in app.get_accounts()]}


def b64(obj):
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def hammer(path, count):
    from msal_extensions import FilePersistence, PersistedTokenCache
    from msal_extensions.filelock import LockError

    cache = PersistedTokenCache(FilePersistence(path))
    print("ready", file=sys.stderr, flush=True)
    tenant = "00000000-0000-0000-0000-0000000000a1"
    invalid_reads = 0
    lock_timeouts = 0
    seen_swift = 0
    for i in range(count):
        uid = "py-%d" % i
        claims = {"oid": uid, "sub": uid, "tid": tenant, "preferred_username": "%s@example.com" % uid,
                  "iss": "https://login.microsoftonline.com/%s/v2.0" % tenant, "aud": "hammer-client"}
        event = {
            "client_id": "hammer-client", "scope": ["User.Read"], "grant_type": "authorization_code",
            "token_endpoint": "https://login.microsoftonline.com/%s/oauth2/v2.0/token" % tenant,
            "response": {"access_token": "at-" + uid, "refresh_token": "rt-" + uid, "token_type": "Bearer", "expires_in": 3600,
                         "id_token": "%s.%s.sig" % (b64({"alg": "none"}), b64(claims)),
                         "client_info": b64({"uid": uid, "utid": tenant})},
        }
        # msal-extensions gives up on the lock after 5 s of polling. On a loaded test machine the
        # other writer can hold it that long (its fsync queued behind other I/O), which is timing, not
        # a lost entry: add again (adding is idempotent) and report how often it happened.
        for attempt in range(5):
            try:
                cache.add(event)
                break
            except LockError:
                lock_timeouts += 1
                if attempt == 4:
                    raise
        try:
            with open(path) as f:
                document = json.load(f)
            seen_swift = max(seen_swift, sum(1 for a in document.get("Account", {}).values() if a.get("local_account_id", "").startswith("swift-")))
        except ValueError:
            invalid_reads += 1
        cache.find(msal.TokenCache.CredentialType.ACCOUNT)
        print("wrote %d" % i, file=sys.stderr, flush=True)
    return {"written": count, "invalid_reads": invalid_reads, "lock_timeouts": lock_timeouts, "seen_swift_accounts": seen_swift}


if __name__ == "__main__":
    scenario, args = sys.argv[1], sys.argv[2:]
    if scenario == "silent-from-file":
        out = silent_from_file(*args)
    elif scenario == "ropc-to-file":
        out = ropc_to_file(*args)
    elif scenario == "hammer":
        out = hammer(args[0], int(args[1]))
    else:
        raise SystemExit("unknown scenario " + scenario)
    print(json.dumps(out))
