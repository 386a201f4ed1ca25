"""MSAL Python's load and save of a token cache file: SerializableTokenCache.deserialize and serialize.

Usage: python msal_python_cache_file.py FILE ROUNDS
Prints {"load_ms": median, "save_ms": median, "save_again_ms": median} for the file msal-bench wrote.
Each round loads into a new cache and serializes it twice, as msal-bench does.
"""
import json
import statistics
import sys
import time

import msal

path, rounds = sys.argv[1], int(sys.argv[2])
with open(path) as f:
    text = f.read()
loads, saves, saves_again = [], [], []
for _ in range(rounds):
    cache = msal.SerializableTokenCache()
    start = time.perf_counter()
    cache.deserialize(text)
    loads.append(time.perf_counter() - start)
    start = time.perf_counter()
    cache.serialize()
    saves.append(time.perf_counter() - start)
    start = time.perf_counter()
    cache.serialize()
    saves_again.append(time.perf_counter() - start)
print(json.dumps({"load_ms": statistics.median(loads) * 1000, "save_ms": statistics.median(saves) * 1000,
                  "save_again_ms": statistics.median(saves_again) * 1000,
                  "accounts": len(cache._cache.get("Account", {}))}))
