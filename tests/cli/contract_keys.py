#!/usr/bin/env python3
"""Every top-level key a report prints is documented in docs/contract.md (issue 26, item 12).

    contract_keys.py CONTRACT.md LABEL=REPORT.json ...

A key counts as documented when the contract names it as `key` or "key". A list report (verify
--all) is checked item by item; for the claims ledger (LABEL claims) the keys of each claim are
checked too. Prints each undocumented key with the command that printed it; exit 1 if any.
"""
import json
import re
import sys


def documented(text):
    return set(re.findall(r'`([A-Za-z_][A-Za-z0-9_.]*)', text)) | set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', text))


def main(argv):
    text = open(argv[1], encoding="utf-8").read()
    names = documented(text)
    missing = []
    for arg in argv[2:]:
        label, path = arg.split("=", 1)
        j = json.load(open(path))
        objs = j if isinstance(j, list) else [j]
        keys = {k for o in objs for k in o}
        if label == "claims" and isinstance(j, dict):
            keys |= {f"claims[].{k}" for c in j.get("claims", []) for k in c}
        for k in sorted(keys):
            bare = k.split(".")[-1]
            if bare not in names:
                missing.append(f"{label}: {k}")
    for m in missing:
        print(f"undocumented in docs/contract.md: {m}")
    print(f"contract_keys: {len(missing)} undocumented key(s)")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
