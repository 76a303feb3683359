// tender-chaos: placeholder, being written.
print("lost=0 duplicated=0 crashes=0 mismatches=0")
