#!/usr/bin/env python3
"""Signs in to a running grain-stories as a household member, through the front's OAuth flow as a browser does,
and prints the session cookie ("name=value") for wrk to send.

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
    name = next(n for n in client.cookies if n.endswith("gs_session"))
    print(f"{name}={client.cookies[name]}")


if __name__ == "__main__":
    main()
