"""MSAL Python's load and save of a token cache file: SerializableTokenCache.deserialize and serialize.

Usage: python msal_python_cache_file.py FILE ROUNDS
Prints {"load_ms": median, "save_ms": median} for the file msal-bench wrote. One cache object is kept
across rounds, as an app keeps its cache (msal-bench does the same).
"""
import json
import statistics
import sys
import time

import msal

path, rounds = sys.argv[1], int(sys.argv[2])
with open(path) as f:
    text = f.read()
loads, saves = [], []
cache = msal.SerializableTokenCache()
for _ in range(rounds):
    start = time.perf_counter()
    cache.deserialize(text)
    loads.append(time.perf_counter() - start)
    start = time.perf_counter()
    cache.serialize()
    saves.append(time.perf_counter() - start)
print(json.dumps({"load_ms": statistics.median(loads) * 1000, "save_ms": statistics.median(saves) * 1000,
                  "accounts": len(cache._cache.get("Account", {}))}))
