"""Drives the real MSAL Python against a running identity-emulator over TLS.

Usage: python msal_python_against_emulator.py SCENARIO AUTHORITY CLIENT_ID CA_PEM [USER PASSWORD]

Scenarios (each prints one JSON object on stdout):
  ropc-refresh  username/password sign-in, a silent cache hit, then a forced refresh with the refresh token
  ropc-refused  username/password sign-in as USER (one who must pass MFA), then with a wrong password: the errors
  device-code   device code flow; a scripted user signs in at /devicelogin with `requests`
"""
import html
import json
import re
import sys
import threading
from urllib.parse import urlparse

import msal
import requests


def app_for(authority, client_id, ca):
    # MSAL Python's user realm discovery (before ROPC) drops the authority's port: it calls
    # https://{hostname}/common/userrealm/... (msal/authority.py, 1.39). Mark the host as one without
    # user realm discovery, as MSAL does itself after a 404, so ROPC goes straight to the token endpoint.
    msal.authority.Authority._domains_without_user_realm_discovery.add(urlparse(authority).hostname)
    return msal.PublicClientApplication(client_id, authority=authority, verify=ca, instance_discovery=False)


def ropc_refresh(authority, client_id, ca, user, password):
    app = app_for(authority, client_id, ca)
    first = app.acquire_token_by_username_password(user, password, scopes=["User.Read"])
    accounts = app.get_accounts(username=user)
    cached = app.acquire_token_silent(["User.Read"], account=accounts[0]) if accounts else None
    refreshed = app.acquire_token_silent(["User.Read"], account=accounts[0], force_refresh=True) if accounts else None
    return {
        "first": summary(first),
        "accounts": [{"username": a["username"], "home_account_id": a["home_account_id"], "environment": a["environment"]} for a in accounts],
        "cached": summary(cached),
        "refreshed": summary(refreshed),
    }


def ropc_refused(authority, client_id, ca, user, password):
    app = app_for(authority, client_id, ca)
    mfa = app.acquire_token_by_username_password(user, password, scopes=["User.Read"])
    wrong = app.acquire_token_by_username_password(user, password + "-wrong", scopes=["User.Read"])
    return {"mfa": refusal(mfa), "wrong_password": refusal(wrong), "accounts": len(app.get_accounts())}


def refusal(result):
    return {
        "error": result.get("error"),
        "suberror": result.get("suberror"),
        "error_codes": result.get("error_codes"),
        "classification": result.get("classification"),
        "has_access_token": "access_token" in result,
    }


def device_code(authority, client_id, ca, user, password):
    app = app_for(authority, client_id, ca)
    flow = app.initiate_device_flow(scopes=["User.Read"])
    if "user_code" not in flow:
        return {"flow_error": flow}
    signed_in = threading.Event()

    def user_signs_in():
        session = requests.Session()
        session.verify = ca
        page = session.post(flow["verification_uri"], data={"otc": flow["user_code"]}).text
        form = parse_form(page, "signin")
        form.update({"username": user, "password": password, "action": "signin"})
        action = html.unescape(re.search(r'<form method="post" action="([^"]*)">', page).group(1))
        base = flow["verification_uri"].rsplit("/devicelogin", 1)[0]
        done = session.post(base + action, data=form).text
        if "You have signed in" in done:
            signed_in.set()

    user_signs_in()
    result = app.acquire_token_by_device_flow(flow, exit_condition=lambda flow: not signed_in.is_set())
    return {"message": flow.get("message"), "user_code": flow["user_code"], "signed_in": signed_in.is_set(), "result": summary(result)}


def parse_form(page, button_id):
    for form in re.findall(r'<form method="post" action="[^"]*">(.*?)</form>', page, re.S):
        if f'id="{button_id}"' in form:
            return {html.unescape(n): html.unescape(v) for n, v in re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', form)}
    raise SystemExit(f"no form with #{button_id} on page:\n{page}")


def summary(result):
    if result is None:
        return None
    return {
        "has_access_token": "access_token" in result,
        "has_refresh_token": "refresh_token" in result,
        "token_source": result.get("token_source"),
        "error": result.get("error"),
        "error_description": result.get("error_description"),
        "preferred_username": (result.get("id_token_claims") or {}).get("preferred_username"),
        "scope": result.get("scope"),
    }


if __name__ == "__main__":
    scenario, authority, client_id, ca = sys.argv[1:5]
    user, password = (sys.argv[5:7] + [None, None])[:2]
    run = {"ropc-refresh": ropc_refresh, "ropc-refused": ropc_refused, "device-code": device_code}[scenario]
    print(json.dumps(run(authority, client_id, ca, user, password)))
