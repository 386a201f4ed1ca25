import MSALHummingbird

// Only resolved by scripts/check-core-only, never built there: the import names the product this consumer uses.
print("depends on MSALHummingbird")
