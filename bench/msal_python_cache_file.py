"""MSAL Python's load and save of a token cache file: SerializableTokenCache.deserialize and serialize.

Usage: python msal_python_cache_file.py FILE ROUNDS
  Prints {"load_ms": median, "save_ms": median, "save_again_ms": median} for the file msal-bench wrote.
Usage: python msal_python_cache_file.py FILE --paired
  Runs one round for each line read on standard input and prints that round's figures as one JSON line,
  so msal-bench can pair each of its rounds with one of these under the same conditions.
Each round loads into a new cache and serializes it twice, as msal-bench does.
"""
import json
import statistics
import sys
import time

import msal


def one_round(text):
    cache = msal.SerializableTokenCache()
    start = time.perf_counter()
    cache.deserialize(text)
    load = time.perf_counter() - start
    start = time.perf_counter()
    cache.serialize()
    save = time.perf_counter() - start
    start = time.perf_counter()
    cache.serialize()
    save_again = time.perf_counter() - start
    return {"load_ms": load * 1000, "save_ms": save * 1000, "save_again_ms": save_again * 1000,
            "accounts": len(cache._cache.get("Account", {}))}


path, rounds = sys.argv[1], sys.argv[2]
with open(path) as f:
    text = f.read()
if rounds == "--paired":
    for _ in sys.stdin:
        print(json.dumps(one_round(text)), flush=True)
else:
    results = [one_round(text) for _ in range(int(rounds))]
    print(json.dumps({key: statistics.median(r[key] for r in results) for key in ("load_ms", "save_ms", "save_again_ms")}
                     | {"accounts": results[-1]["accounts"]}))
