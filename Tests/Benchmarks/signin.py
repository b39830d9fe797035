#!/usr/bin/env python3
"""Signs in to a running grain-stories as a household member, through the front's OAuth flow as a browser does,
and prints the front's cookies ("name=value; name=value") for wrk to send: the session and the CSRF cookie, as the
member's browser holds them (without the CSRF cookie every page would set a new one and could not be cached).

Usage: signin.py BASE_URL HANDLE PASSWORD
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uploads import Client, sign_in  # noqa: E402


def main():
    base, handle, password = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    client = Client(base)
    sign_in(client, handle, password)
    client.request("GET", "/")
    names = [n for n in client.cookies if n.endswith("gs_session") or n.endswith("gs_csrf")]
    if not any(n.endswith("gs_session") for n in names):
        sys.exit("signed in, yet no session cookie came back")
    print("; ".join(f"{n}={client.cookies[n]}" for n in sorted(names)))


if __name__ == "__main__":
    main()
