"""Drives Microsoft's own Python SDKs against a running identity-emulator over TLS.

Usage: python microsoft_sdks_against_emulator.py SCENARIO ORIGIN TENANT CLIENT_ID CA_PEM

Scenarios (each gets a token twice, or reads /me twice, and prints one JSON object on stdout):
  azure-identity-device-code    DeviceCodeCredential; the user signs in at /devicelogin with `requests`
  azure-identity-interactive    InteractiveBrowserCredential; $BROWSER signs in on the emulator's pages
  azure-identity-client-secret  ClientSecretCredential (CLIENT_ID is the confidential client)
  msgraph-me                    msgraph-sdk's GraphServiceClient.me.get() on a DeviceCodeCredential
  msal-interactive              MSAL Python's acquire_token_interactive, then acquire_token_silent

Secrets come from the environment, never the command line: EMULATOR_USERNAME and EMULATOR_PASSWORD (the user,
also read by emulator-browser), EMULATOR_CLIENT_SECRET (the confidential client's secret).

The report names the SDK and, per step, the token endpoint requests the step made (read from the emulator's
request log before and after it), so a caller can check that the second step was served from MSAL's cache.
A failure prints {"sdk", "step", "error"} and exits 1.
"""
import asyncio
import base64
import html
import json
import os
import re
import ssl
import subprocess
import sys
import threading
import webbrowser
from urllib.parse import parse_qs, urlparse

import requests

from msal_python_against_emulator import parse_form

GRAPH_DEFAULT = "https://graph.microsoft.com/.default"
TIMEOUT = 120  # seconds an interactive flow waits for its redirect; a failing browser ends the wait at once


class Run:
    """One scenario under way: its SDK, the step in progress (named by a failure), and the report."""

    def __init__(self, sdk, origin, ca):
        self.sdk = sdk
        self.origin = origin
        self.ca = ca
        self.step = "setup"
        self.report = {"sdk": sdk, "token_requests": {}}

    def served(self, path):
        answer = requests.get(f"{self.origin}/_emulator/requests", params={"path": path}, verify=self.ca)
        answer.raise_for_status()
        return answer.json()["requests"]

    def measure(self, step, call):
        """Runs `call` as `step`, noting the grant types of the token endpoint requests it made."""
        self.step = step
        before = len(self.served("/oauth2/v2.0/token"))
        value = call()
        after = self.served("/oauth2/v2.0/token")
        self.report["token_requests"][step] = [r.get("grant_type") or "" for r in after[before:]]
        return value


# MARK: - The scripted browser and user


class BackgroundBrowser(webbrowser.BaseBrowser):
    """$BROWSER, started without waiting for it to exit.

    Python's webbrowser runs an unknown $BROWSER as a GenericBrowser and waits for it. Both SDKs open the browser on
    the thread that then serves the loopback redirect, and a scripted browser only exits once the redirect is
    answered, so waiting would hang. A desktop browser (xdg-open, firefox) returns at once; so does this one. If the
    browser fails, its error is posted to the redirect URI (as the identity provider posts an `error`), so the SDK
    stops waiting at once rather than at its timeout, and the browser's output goes into the report.
    """

    def __init__(self, command, report):
        super().__init__(command)
        self.report = report
        self.watchers = []

    def open(self, url, new=0, autoraise=True):
        process = subprocess.Popen([self.name, url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        watcher = threading.Thread(target=self.watch, args=(process, url), daemon=True)
        watcher.start()
        self.watchers.append(watcher)
        return True

    def finish(self):
        """Waits for every browser opened to exit (each has been answered by now), so the report lists them all."""
        for watcher in self.watchers:
            watcher.join()

    def watch(self, process, url):
        out, err = process.communicate()
        output = brief((out + err).strip())
        self.report.setdefault("browser", []).append({"status": process.returncode, "output": output})
        if process.returncode != 0:
            query = parse_qs(urlparse(url).query)
            form = {"error": "browser_failed", "error_description": f"the browser exited {process.returncode}: {output}"}
            if "state" in query:
                form["state"] = query["state"][0]
            requests.post(query["redirect_uri"][0], data=form)


def brief(output):
    """A browser's complaint, with a page it did not expect cut down to its first line, title and forms."""
    if "<html" not in output:
        return output
    lines = output.splitlines()
    return "\n".join([lines[0]] + [line for line in lines[1:] if re.search(r"<title>|<form |onload=", line)])


def use_scripted_browser(run):
    command = os.environ.get("BROWSER")
    if not command:
        raise RuntimeError("set BROWSER to a scripted browser (emulator-browser) for the interactive scenarios")
    browser = BackgroundBrowser(command, run.report)
    webbrowser.register("scripted", None, browser, preferred=True)
    return browser


def sign_in_at_devicelogin(run, verification_uri, user_code):
    """The user types the code at /devicelogin and signs in, as in msal_python_against_emulator.py."""
    step, run.step = run.step, run.step + ": the user signs in at /devicelogin"
    session = requests.Session()
    session.verify = run.ca
    page = session.post(verification_uri, data={"otc": user_code}).text
    form = parse_form(page, "signin")
    form.update({"username": os.environ["EMULATOR_USERNAME"], "password": os.environ["EMULATOR_PASSWORD"], "action": "signin"})
    action = html.unescape(re.search(r'<form method="post" action="([^"]*)">', page).group(1))
    done = session.post(verification_uri.rsplit("/devicelogin", 1)[0] + action, data=form).text
    run.report["device_sign_in"] = "You have signed in" in done
    run.step = step


# MARK: - Scenarios


def emulator_options(origin, ca):
    """azure-identity's options for the emulator in place of login.microsoftonline.com (tokens are cached in memory,
    the credentials' default)."""
    return {"authority": urlparse(origin).netloc, "disable_instance_discovery": True, "connection_verify": ca}


def azure_identity_device_code(run, origin, tenant, client_id, ca):
    from azure.identity import DeviceCodeCredential

    credential = DeviceCodeCredential(client_id=client_id, tenant_id=tenant, **emulator_options(origin, ca),
                                      prompt_callback=lambda uri, code, expires_on: sign_in_at_devicelogin(run, uri, code))
    return two_tokens(run, credential, [GRAPH_DEFAULT])


def azure_identity_interactive(run, origin, tenant, client_id, ca):
    from azure.identity import InteractiveBrowserCredential

    browser = use_scripted_browser(run)
    credential = InteractiveBrowserCredential(client_id=client_id, tenant_id=tenant, timeout=TIMEOUT, **emulator_options(origin, ca))
    two_tokens(run, credential, [GRAPH_DEFAULT])
    browser.finish()
    return run.report


def azure_identity_client_secret(run, origin, tenant, client_id, ca):
    from azure.identity import ClientSecretCredential

    credential = ClientSecretCredential(tenant, client_id, os.environ["EMULATOR_CLIENT_SECRET"], **emulator_options(origin, ca))
    return two_tokens(run, credential, [GRAPH_DEFAULT])


def two_tokens(run, credential, scopes):
    first = run.measure("first get_token", lambda: credential.get_token(*scopes))
    second = run.measure("second get_token", lambda: credential.get_token(*scopes))
    run.report["first"] = claims_summary(first.token)
    run.report["second"] = claims_summary(second.token)
    run.report["second_is_first"] = first.token == second.token
    return run.report


def msgraph_me(run, origin, tenant, client_id, ca):
    import httpx
    from azure.identity import DeviceCodeCredential
    from kiota_authentication_azure.azure_identity_authentication_provider import AzureIdentityAuthenticationProvider
    from msgraph import GraphRequestAdapter, GraphServiceClient
    from msgraph.graph_request_adapter import options
    from msgraph_core import GraphClientFactory

    credential = DeviceCodeCredential(client_id=client_id, tenant_id=tenant, **emulator_options(origin, ca),
                                      prompt_callback=lambda uri, code, expires_on: sign_in_at_devicelogin(run, uri, code))
    # GraphServiceClient(credential, scopes) with the emulator in place of graph.microsoft.com: Graph's own
    # middleware over an httpx client that trusts the emulator's CA, and 127.0.0.1 allowed to receive the token.
    authentication = AzureIdentityAuthenticationProvider(credential, scopes=[GRAPH_DEFAULT], allowed_hosts=[urlparse(origin).hostname])
    http = httpx.AsyncClient(verify=ssl.create_default_context(cafile=ca), base_url=f"{origin}/v1.0", http2=True)
    client = GraphServiceClient(request_adapter=GraphRequestAdapter(authentication, GraphClientFactory.create_with_default_middleware(
        client=http, options=options)))
    loop = asyncio.new_event_loop()
    graph_before = len(run.served("/me"))
    first = run.measure("first me.get()", lambda: loop.run_until_complete(client.me.get()))
    second = run.measure("second me.get()", lambda: loop.run_until_complete(client.me.get()))
    run.step = "closing the Graph client"
    loop.run_until_complete(http.aclose())
    loop.close()
    run.report["graph_requests"] = [{"status": r["status"]} for r in run.served("/me")[graph_before:]]
    run.report["first"] = user_summary(first)
    run.report["second"] = user_summary(second)
    return run.report


def msal_interactive(run, origin, tenant, client_id, ca):
    import msal

    browser = use_scripted_browser(run)
    app = msal.PublicClientApplication(client_id, authority=f"{origin}/{tenant}", verify=ca, instance_discovery=False)
    # URI-form scopes, as apps written for several resources pass them: the silent call must find the token
    # MSAL filed under the scopes the server answered.
    scopes = ["https://graph.microsoft.com/User.Read"]
    first = run.measure("acquire_token_interactive", lambda: token_result(app.acquire_token_interactive(scopes, timeout=TIMEOUT)))
    run.report["first"] = msal_summary(first)
    run.step = "get_accounts"
    accounts = app.get_accounts(username=os.environ["EMULATOR_USERNAME"])
    run.report["accounts"] = [a["username"] for a in accounts]
    if not accounts:
        raise RuntimeError("no account for the user who signed in")
    second = run.measure("acquire_token_silent", lambda: token_result(app.acquire_token_silent(scopes, account=accounts[0])))
    run.report["second"] = msal_summary(second)
    run.report["second_is_first"] = first["access_token"] == second["access_token"]
    browser.finish()
    return run.report


def token_result(result):
    """MSAL's answer when it holds a token; else the error it reports, raised."""
    if not result:
        raise RuntimeError("no token (MSAL returned None)")
    if "access_token" not in result:
        raise RuntimeError(f"{result.get('error')}: {result.get('error_description')}")
    return result


# MARK: - Summaries


def claims_summary(token):
    """The access token's claims that say whose token it is and for what (the signature is Graph's business)."""
    payload = token.split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return {key: claims.get(key) for key in ("aud", "scp", "roles", "tid", "upn", "azp", "appid", "idtyp", "ver")}


def user_summary(user):
    if user is None:
        return None
    return {"type": type(user).__module__ + "." + type(user).__name__, "id": user.id, "display_name": user.display_name,
            "user_principal_name": user.user_principal_name, "mail": user.mail, "given_name": user.given_name,
            "surname": user.surname, "job_title": user.job_title}


def msal_summary(result):
    return {"token_source": result.get("token_source"), "scope": result.get("scope"),
            "preferred_username": (result.get("id_token_claims") or {}).get("preferred_username")}


SCENARIOS = {
    "azure-identity-device-code": ("azure-identity DeviceCodeCredential", azure_identity_device_code),
    "azure-identity-interactive": ("azure-identity InteractiveBrowserCredential", azure_identity_interactive),
    "azure-identity-client-secret": ("azure-identity ClientSecretCredential", azure_identity_client_secret),
    "msgraph-me": ("msgraph-sdk GraphServiceClient", msgraph_me),
    "msal-interactive": ("MSAL Python", msal_interactive),
}

if __name__ == "__main__":
    scenario, origin, tenant, client_id, ca = sys.argv[1:6]
    sdk, scenario_function = SCENARIOS[scenario]
    run = Run(sdk, origin, ca)
    try:
        report = scenario_function(run, origin, tenant, client_id, ca)
    except Exception as error:  # one line naming the SDK and step, instead of a traceback
        report = {**run.report, "step": run.step, "error": f"{type(error).__name__}: {error}"}
    print(json.dumps(report))
    sys.exit(1 if "error" in report else 0)
