"""MSAL Python with its token cache in PostgreSQL, one SerializableTokenCache per partition, loaded and saved on
every request: the pattern Microsoft's Python web app samples follow (load the cache, build the app, call MSAL, save
the cache when it changed), with a table instead of the session.

Usage:
  python msal_python_distributed.py users PARTITIONS_FILE
      Web-app silent calls: PARTITIONS_FILE holds one user partition per line (home account id, a tab, the cache
      JSON), as msal-bench wrote them. They go into the table python_user_cache; then, for each user, one timed
      request: read the row, deserialize, build the app, find the account, acquire_token_silent.
      Prints {"median_us": …, "p99_us": …, "requests": N}.
  python msal_python_distributed.py apps PARTITIONS SECONDS
      One process of four: 16 threads call acquire_token_for_client for random tenants among PARTITIONS (their app
      tokens in python_app_cache, one row per tenant). A first pass over every tenant fills the table (the first
      process to reach a tenant gets its token from the stub), then it prints "ready N" (N: its token requests so far)
      and waits for a line on its standard input; then it calls for SECONDS and prints
      {"calls": …, "seconds": …, "token_requests": …} (token_requests including the first pass's).

The database's URL, with its password, comes from $POSTGRES_URL, never the command line.
A stub HTTP client answers discovery and client-credentials grants for any tenant, so nothing leaves the machine;
each thread has its own PostgreSQL connection (psycopg 3).
"""
import json
import os
import random
import statistics
import sys
import threading
import time

import msal
import psycopg

from stub_identity_platform import HOST, Stub

CLIENT = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
APP_CLIENT = "2c9e5b7a-8f14-4d3c-b6a9-7e0d1f2c3b45"
USER_TENANT = "8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b"
SCOPES = ["https://graph.microsoft.com/.default"]
THREADS = 16


def users(url, partitions_file):
    stub = Stub()
    http_cache = {}
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("CREATE TABLE IF NOT EXISTS python_user_cache (partition_key TEXT PRIMARY KEY, data TEXT)")
        rows = [line.rstrip("\n").split("\t", 1) for line in open(partitions_file, encoding="utf-8")]
        with connection.cursor() as cursor:
            cursor.executemany("INSERT INTO python_user_cache VALUES (%s, %s) ON CONFLICT (partition_key) DO UPDATE "
                               "SET data = excluded.data", rows)
        samples = []
        for home, _ in rows:
            start = time.perf_counter()
            row = connection.execute("SELECT data FROM python_user_cache WHERE partition_key = %s", (home,)).fetchone()
            cache = msal.SerializableTokenCache()
            cache.deserialize(row[0])
            app = msal.ConfidentialClientApplication(
                CLIENT, client_credential="bench-secret", authority=HOST + USER_TENANT, token_cache=cache,
                http_client=stub, instance_discovery=False, http_cache=http_cache)
            account = next(a for a in app.get_accounts() if a["home_account_id"] == home)
            result = app.acquire_token_silent(["User.Read"], account=account)
            if cache.has_state_changed:
                connection.execute("UPDATE python_user_cache SET data = %s WHERE partition_key = %s",
                                   (cache.serialize(), home))
            samples.append(time.perf_counter() - start)
            assert result and "access_token" in result, result
    samples.sort()
    print(json.dumps({"median_us": statistics.median(samples) * 1e6, "p99_us": samples[len(samples) * 99 // 100] * 1e6,
                      "requests": len(samples), "token_requests": stub.token_requests}))


def app_token(connection, stub, http_cache, tenant):
    """One request: load the tenant's partition, build the app, acquire, save when it changed."""
    row = connection.execute("SELECT data FROM python_app_cache WHERE partition_key = %s", (tenant,)).fetchone()
    cache = msal.SerializableTokenCache()
    if row:
        cache.deserialize(row[0])
    app = msal.ConfidentialClientApplication(
        APP_CLIENT, client_credential="bench-secret", authority=HOST + tenant, token_cache=cache, http_client=stub,
        instance_discovery=False, http_cache=http_cache)
    result = app.acquire_token_for_client(SCOPES)
    assert "access_token" in result, result
    if cache.has_state_changed:
        connection.execute("INSERT INTO python_app_cache VALUES (%s, %s) ON CONFLICT (partition_key) DO UPDATE "
                           "SET data = excluded.data", (tenant, cache.serialize()))


def apps(url, partitions, seconds):
    tenants = ["%08x-0000-4000-8000-%012x" % (index, index) for index in range(partitions)]
    stub = Stub()
    http_cache = {}
    with psycopg.connect(url, autocommit=True) as connection:
        # Several processes may create it at once; the loser's error is harmless.
        try:
            connection.execute("CREATE TABLE IF NOT EXISTS python_app_cache (partition_key TEXT PRIMARY KEY, data TEXT)")
        except psycopg.Error:
            pass
    connections = [psycopg.connect(url, autocommit=True) for _ in range(THREADS)]

    def run(index, work):
        for tenant in work:
            app_token(connections[index], stub, http_cache, tenant)

    warm = [threading.Thread(target=run, args=(i, tenants[i::THREADS])) for i in range(THREADS)]
    for thread in warm:
        thread.start()
    for thread in warm:
        thread.join()
    print("ready %d" % stub.token_requests, flush=True)
    sys.stdin.readline()
    counts = [0] * THREADS
    deadline = time.perf_counter() + seconds

    def timed(index):
        generator = random.Random(index)
        while time.perf_counter() < deadline:
            app_token(connections[index], stub, http_cache, tenants[generator.randrange(partitions)])
            counts[index] += 1

    start = time.perf_counter()
    threads = [threading.Thread(target=timed, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    print(json.dumps({"calls": sum(counts), "seconds": elapsed, "token_requests": stub.token_requests}), flush=True)


if __name__ == "__main__":
    database = os.environ["POSTGRES_URL"]
    if sys.argv[1] == "users":
        users(database, sys.argv[2])
    else:
        apps(database, int(sys.argv[2]), float(sys.argv[3]))
