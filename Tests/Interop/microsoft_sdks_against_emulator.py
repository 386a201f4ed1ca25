"""Drives Microsoft's own Python SDKs against a running identity-emulator over TLS.

Usage: python microsoft_sdks_against_emulator.py SCENARIO ORIGIN TENANT CLIENT_ID CA_PEM [EXTRA]

Scenarios (each gets a token twice, or reads /me twice, and prints one JSON object on stdout):
  azure-identity-device-code         DeviceCodeCredential; the user signs in at /devicelogin with `requests`
  azure-identity-interactive         InteractiveBrowserCredential; $BROWSER signs in on the emulator's pages
  azure-identity-client-secret       ClientSecretCredential (CLIENT_ID is the confidential client)
  azure-identity-client-certificate  CertificateCredential with a PEM file holding the key and certificate
  azure-identity-on-behalf-of        OnBehalfOfCredential (CLIENT_ID is the middle-tier API, EXTRA the public
                                     client the user signs in to first, for api://CLIENT_ID/ToDoList.Read)
  azure-identity-workload-identity   WorkloadIdentityCredential on a token file the emulator's workload issuer
                                     fills (EXTRA is the service account subject); the file is then rotated
  msgraph-me                         msgraph-sdk's GraphServiceClient.me.get() on a DeviceCodeCredential
  msal-interactive                   MSAL Python's acquire_token_interactive, then acquire_token_silent
  msal-confidential-secret           MSAL Python's ConfidentialClientApplication with a secret: acquire_token_for_client
  msal-confidential-certificate      the same with a certificate (PS256 client assertions with x5t#S256)
  msal-obo                           MSAL Python's acquire_token_on_behalf_of (CLIENT_ID and EXTRA as for
                                     azure-identity-on-behalf-of), then acquire_token_silent, then GET /v1.0/me

Secrets come from the environment, never the command line: EMULATOR_USERNAME and EMULATOR_PASSWORD (the user,
also read by emulator-browser), EMULATOR_CLIENT_SECRET (the confidential client's secret),
EMULATOR_CLIENT_CERTIFICATE (the path of a PEM file with the client's private key and its certificate).

The report names the SDK and, per step, the token endpoint requests the step made (read from the emulator's
request log before and after it), so a caller can check that the second step was served from MSAL's cache.
Scenarios that sign client assertions also list each assertion's JOSE header (`client_assertions`).
A failure prints {"sdk", "step", "error"} and exits 1.
"""
import asyncio
import base64
import hashlib
import html
import json
import os
import re
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import webbrowser
from urllib.parse import parse_qs, urlparse

import requests

from msal_python_against_emulator import app_for, parse_form

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
        self.tokens = []  # the access tokens two_tokens got, for a later step to use

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
    run.tokens = [first.token, second.token]
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


# MARK: - Confidential clients


def msal_confidential_secret(run, origin, tenant, client_id, ca):
    import msal

    app = msal.ConfidentialClientApplication(client_id, client_credential=os.environ["EMULATOR_CLIENT_SECRET"],
                                             authority=f"{origin}/{tenant}", verify=ca, instance_discovery=False)
    return two_app_tokens(run, app)


def msal_confidential_certificate(run, origin, tenant, client_id, ca):
    import msal

    private_key, certificate = pem_blocks(os.environ["EMULATOR_CLIENT_CERTIFICATE"])
    # MSAL Python 1.39 signs PS256 with x5t#S256 (and sends the certificate as x5c) when given the certificate and
    # no "thumbprint"; a "thumbprint" is taken for SHA-1 and signs RS256 with x5t, as azure-identity does.
    credential = {"private_key": private_key, "public_certificate": certificate}
    app = msal.ConfidentialClientApplication(client_id, client_credential=credential, authority=f"{origin}/{tenant}",
                                             http_client=AssertionRecordingSession(run, ca), instance_discovery=False)
    return two_app_tokens(run, app)


def two_app_tokens(run, app):
    """acquire_token_for_client twice: the second answer must come from MSAL's cache."""
    scopes = [GRAPH_DEFAULT]
    first = run.measure("first acquire_token_for_client", lambda: token_result(app.acquire_token_for_client(scopes)))
    second = run.measure("second acquire_token_for_client", lambda: token_result(app.acquire_token_for_client(scopes)))
    run.report["first"] = {"token_source": first.get("token_source"), **claims_summary(first["access_token"])}
    run.report["second"] = {"token_source": second.get("token_source"), **claims_summary(second["access_token"])}
    run.report["second_is_first"] = first["access_token"] == second["access_token"]
    return run.report


def msal_obo(run, origin, tenant, client_id, ca, user_client_id):
    import msal

    incoming = users_token_for_api(run, origin, tenant, client_id, ca, user_client_id)
    api = msal.ConfidentialClientApplication(client_id, client_credential=os.environ["EMULATOR_CLIENT_SECRET"],
                                             authority=f"{origin}/{tenant}", verify=ca, instance_discovery=False)
    scopes = ["User.Read"]
    first = run.measure("acquire_token_on_behalf_of",
                        lambda: token_result(api.acquire_token_on_behalf_of(incoming, scopes)))
    run.report["first"] = {"token_source": first.get("token_source"), **claims_summary(first["access_token"])}
    # MSAL Python's OBO always asks the token endpoint; a web API finds the token again through the account the
    # answer's ID token and client_info filed it under (what azure-identity's OnBehalfOfCredential does).
    run.step = "get_accounts"
    accounts = api.get_accounts(username=os.environ["EMULATOR_USERNAME"])
    run.report["accounts"] = [a["username"] for a in accounts]
    if not accounts:
        raise RuntimeError("no account for the user after acquire_token_on_behalf_of")
    second = run.measure("acquire_token_silent", lambda: token_result(api.acquire_token_silent(scopes, account=accounts[0])))
    run.report["second"] = {"token_source": second.get("token_source"), **claims_summary(second["access_token"])}
    run.report["second_is_first"] = first["access_token"] == second["access_token"]
    graph_me(run, first["access_token"])
    return run.report


def users_token_for_api(run, origin, tenant, api_client_id, ca, user_client_id):
    """The user signs in to the public client (username and password, MSAL Python's ROPC) for API 1's scope: the
    token the API receives and passes on."""
    app = app_for(f"{origin}/{tenant}", user_client_id, ca)
    scopes = [f"api://{api_client_id}/ToDoList.Read"]
    result = run.measure("the user's token for the API", lambda: token_result(app.acquire_token_by_username_password(
        os.environ["EMULATOR_USERNAME"], os.environ["EMULATOR_PASSWORD"], scopes=scopes)))
    run.report["incoming"] = claims_summary(result["access_token"])
    return result["access_token"]


def graph_me(run, token):
    """GET /v1.0/me with the token, as the middle tier calls Graph."""
    run.step = "GET /v1.0/me"
    answer = requests.get(f"{run.origin}/v1.0/me", headers={"Authorization": f"Bearer {token}"}, verify=run.ca)
    body = answer.json() if answer.headers.get("content-type", "").startswith("application/json") else {}
    run.report["me"] = {"status": answer.status_code, "id": body.get("id"), "userPrincipalName": body.get("userPrincipalName"),
                        "displayName": body.get("displayName"), "error": (body.get("error") or {}).get("code")}


def azure_identity_client_certificate(run, origin, tenant, client_id, ca):
    from azure.identity import CertificateCredential

    credential = CertificateCredential(tenant, client_id, certificate_path=os.environ["EMULATOR_CLIENT_CERTIFICATE"],
                                       raw_request_hook=assertion_hook(run), **emulator_options(origin, ca))
    return two_tokens(run, credential, [GRAPH_DEFAULT])


def azure_identity_on_behalf_of(run, origin, tenant, client_id, ca, user_client_id):
    from azure.identity import OnBehalfOfCredential

    incoming = users_token_for_api(run, origin, tenant, client_id, ca, user_client_id)
    credential = OnBehalfOfCredential(tenant, client_id, client_secret=os.environ["EMULATOR_CLIENT_SECRET"],
                                      user_assertion=incoming, **emulator_options(origin, ca))
    two_tokens(run, credential, ["https://graph.microsoft.com/User.Read"])
    graph_me(run, run.tokens[0])
    return run.report


def azure_identity_workload_identity(run, origin, tenant, client_id, ca, subject):
    """A pod's token file, filled by the emulator's workload issuer as Kubernetes fills it, then rotated.

    azure-identity reads the file again once 600 s have passed since it last read it: the rotation step runs ten
    minutes later on the credential's file clock (and on the emulator's, where the first token has expired by then),
    and asks with a claims challenge, which bypasses the credential's cache."""
    import azure.identity._credentials.workload_identity as workload_module
    from azure.identity import WorkloadIdentityCredential

    with tempfile.TemporaryDirectory(prefix="workload-identity-") as folder:
        path = os.path.join(folder, "azure-identity-token")
        # 600 s, the shortest lifetime Kubernetes projects a service account token with
        minted = {"first minted token": mint_workload_token(run, subject, path, lifetime=600)}
        credential = WorkloadIdentityCredential(tenant_id=tenant, client_id=client_id, token_file_path=path,
                                                raw_request_hook=assertion_hook(run), **emulator_options(origin, ca))
        two_tokens(run, credential, [GRAPH_DEFAULT])

        run.step = "ten minutes later, the cluster rotates the token file"
        offset = clock(run)["offsetSeconds"]
        clock(run, offset + 601)
        try:
            minted["second minted token"] = mint_workload_token(run, subject, path, lifetime=3600)
            workload_module.time = LaterClock(601)
            challenge = json.dumps({"access_token": {"nbf": {"essential": True, "value": str(int(time.time()))}}})
            rotated = run.measure("get_token after the rotation",
                                  lambda: credential.get_token(GRAPH_DEFAULT, claims=challenge))
        finally:
            workload_module.time = time
            clock(run, offset)
    run.report["after_rotation"] = claims_summary(rotated.token)
    run.report["after_rotation_is_first"] = rotated.token == run.tokens[0]
    by_digest = {digest(token): name for name, token in minted.items()}
    run.report["assertion_sources"] = {a["step"]: by_digest.get(a["digest"], "not a minted token")
                                       for a in run.report.get("client_assertions", [])}
    return run.report


def mint_workload_token(run, subject, path, lifetime):
    """A service account token from the emulator's workload issuer, written to the pod's token file."""
    answer = requests.post(f"{run.origin}/_emulator/workload/token", json={"subject": subject, "lifetimeSeconds": lifetime},
                           verify=run.ca)
    answer.raise_for_status()
    token = answer.json()["token"]
    with open(path, "w", encoding="utf-8") as file:
        file.write(token)
    return token


def clock(run, offset=None):
    """The emulator's clock ({"now", "offsetSeconds"}), first set to `offset` seconds ahead when given."""
    if offset is None:
        answer = requests.get(f"{run.origin}/_emulator/clock", verify=run.ca)
    else:
        answer = requests.post(f"{run.origin}/_emulator/clock", json={"offsetSeconds": offset}, verify=run.ca)
    answer.raise_for_status()
    return answer.json()


class LaterClock:
    """`time` as the token file reader sees it, `seconds` later than now."""

    def __init__(self, seconds):
        self.seconds = seconds

    def time(self):
        return time.time() + self.seconds


def pem_blocks(path):
    """The private key and the certificate of a PEM file holding both."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    key = re.search(r"-----BEGIN (?:RSA )?PRIVATE KEY-----.*?-----END (?:RSA )?PRIVATE KEY-----", text, re.S)
    certificate = re.search(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----", text, re.S)
    if not key or not certificate:
        raise RuntimeError(f"{path} needs a PRIVATE KEY and a CERTIFICATE block")
    return key.group(0), certificate.group(0)


# MARK: - Client assertions on the wire


class AssertionRecordingSession(requests.Session):
    """MSAL's HTTP client: a requests session trusting the emulator's CA that notes the client assertions it posts."""

    def __init__(self, run, ca):
        super().__init__()
        self.run = run
        self.verify = ca

    def post(self, url, data=None, **kwargs):
        note_assertion(self.run, data)
        return super().post(url, data=data, **kwargs)


def assertion_hook(run):
    """azure-core's raw_request_hook: notes the client assertion of each request azure-identity sends."""

    def hook(request):
        data = request.http_request.data
        if isinstance(data, (bytes, str)):
            data = {k: v[0] for k, v in parse_qs(data.decode() if isinstance(data, bytes) else data).items()}
        note_assertion(run, data)

    return hook


def note_assertion(run, form):
    """The assertion's JOSE header and who it names; a digest tells which token file content it was."""
    assertion = (form or {}).get("client_assertion") if isinstance(form, dict) else None
    if not assertion:
        return
    if isinstance(assertion, bytes):  # MSAL Python posts its assertion as bytes
        assertion = assertion.decode()
    header, claims = (decode_segment(part) for part in assertion.split(".")[:2])
    run.report.setdefault("client_assertions", []).append({
        "step": run.step, "alg": header.get("alg"), "header": sorted(header), "iss": claims.get("iss"),
        "sub": claims.get("sub"), "aud": claims.get("aud"), "digest": digest(assertion)})


def decode_segment(segment):
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))


def digest(token):
    return hashlib.sha256(token.encode()).hexdigest()[:16]


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
    claims = decode_segment(token.split(".")[1])
    keys = ("aud", "scp", "roles", "tid", "upn", "name", "oid", "azp", "appid", "azpacr", "appidacr", "idtyp", "ver")
    return {key: claims.get(key) for key in keys}


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
    "azure-identity-client-certificate": ("azure-identity CertificateCredential", azure_identity_client_certificate),
    "azure-identity-on-behalf-of": ("azure-identity OnBehalfOfCredential", azure_identity_on_behalf_of),
    "azure-identity-workload-identity": ("azure-identity WorkloadIdentityCredential", azure_identity_workload_identity),
    "msal-confidential-secret": ("MSAL Python ConfidentialClientApplication", msal_confidential_secret),
    "msal-confidential-certificate": ("MSAL Python ConfidentialClientApplication", msal_confidential_certificate),
    "msal-obo": ("MSAL Python ConfidentialClientApplication", msal_obo),
}

if __name__ == "__main__":
    scenario, origin, tenant, client_id, ca = sys.argv[1:6]
    extra = sys.argv[6:]  # a scenario's further ids: the public client of on-behalf-of, the workload's subject
    sdk, scenario_function = SCENARIOS[scenario]
    run = Run(sdk, origin, ca)
    try:
        report = scenario_function(run, origin, tenant, client_id, ca, *extra)
    except Exception as error:  # one line naming the SDK and step, instead of a traceback
        report = {**run.report, "step": run.step, "error": f"{type(error).__name__}: {error}"}
    print(json.dumps(report))
    sys.exit(1 if "error" in report else 0)
