"""Signs a demo member in through a front whose sign-in server is another process (a remote --appview), as a
browser would: the front's /login, the authorization server's own form, the front's callback. Prints the
session cookie as `NAME=VALUE` for wrk's Cookie header.

Usage: fronts_signin.py FRONT_URL HANDLE PASSWORD
"""
import os
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uploads import CSRF, REQUEST_URI, Client, unescape  # noqa: E402


def main():
    front_url, handle, password = sys.argv[1:4]
    front = Client(front_url)
    _, _, page = front.request("GET", "/login?next=/")
    status, headers, _ = front.post_form("/login", {"csrf": CSRF.search(page).group(1), "handle": handle, "next": "/"})
    assert status == 303, f"starting sign-in answered {status}"
    authorize = urllib.parse.urlsplit(headers["Location"])
    server = Client(f"{authorize.scheme}://{authorize.netloc}")
    _, _, page = server.request("GET", authorize.path + "?" + authorize.query)
    fields = {
        "request_uri": unescape(REQUEST_URI.search(page).group(1)),
        "csrf": unescape(CSRF.search(page).group(1)),
        "username": handle.split(".")[0],
        "password": password,
    }
    status, headers, _ = server.post_form("/oauth/authorize", fields)
    assert status == 303, f"the sign-in form answered {status}"
    status, _, _ = front.request("GET", headers["Location"])
    assert status == 303, f"the callback answered {status}"
    name = next(n for n in front.cookies if n.endswith("session"))
    print(f"{name}={front.cookies[name]}")


if __name__ == "__main__":
    main()
