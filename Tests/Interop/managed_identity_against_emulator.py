"""Gets managed identity tokens with Microsoft's Python SDKs from identity-emulator's Azure hosts.

Usage: python managed_identity_against_emulator.py SDK RESOURCE [CLIENT_ID]

SDK is `azure-identity` (ManagedIdentityCredential) or `msal` (MSAL Python's ManagedIdentityClient); CLIENT_ID names a
user-assigned identity. The source is chosen the way it is on Azure, from the environment the caller sets
(IDENTITY_ENDPOINT, IDENTITY_HEADER, IDENTITY_SERVER_THUMBPRINT, MSI_ENDPOINT, MSI_SECRET, IMDS_ENDPOINT or
AZURE_POD_IDENTITY_AUTHORITY_HOST); REQUESTS_CA_BUNDLE trusts the emulator's CA. ARC_KEY_FOLDER, when set, replaces
the Azure Arc agent's folder (/var/opt/azcmagent/tokens), which only root can write to, in MSAL Python's table.

Each SDK asks twice; one JSON object is printed on stdout: the token's claims that identify the identity, and
whether the second answer was the same token (from the SDK's cache). A failure prints {"sdk", "error"}, exits 1.
"""
import base64
import json
import os
import sys

import msal
import msal.managed_identity
import requests


def claims(token):
    payload = token.split(".")[1]
    payload += "=" * (-len(payload) % 4)
    decoded = json.loads(base64.urlsafe_b64decode(payload))
    return {name: decoded.get(name) for name in ("oid", "idtyp", "xms_mirid", "roles", "upn", "tid")}


def with_msal(resource, client_id):
    identity = (
        msal.UserAssignedManagedIdentity(client_id=client_id) if client_id else msal.SystemAssignedManagedIdentity()
    )
    client = msal.ManagedIdentityClient(identity, http_client=requests.Session())
    tokens = []
    for _ in range(2):
        result = client.acquire_token_for_client(resource=resource)
        if "access_token" not in result:
            raise RuntimeError(json.dumps(result))
        tokens.append(result)
    return tokens[0]["access_token"], tokens[1]["access_token"], tokens[1].get("token_source")


def with_azure_identity(resource, client_id):
    from azure.identity import ManagedIdentityCredential

    credential = ManagedIdentityCredential(client_id=client_id) if client_id else ManagedIdentityCredential()
    first = credential.get_token(resource + "/.default")
    second = credential.get_token(resource + "/.default")
    return first.token, second.token, None


def main():
    sdk, resource = sys.argv[1], sys.argv[2]
    client_id = sys.argv[3] if len(sys.argv) > 3 else None
    folder = os.environ.get("ARC_KEY_FOLDER")
    if folder:
        msal.managed_identity._supported_arc_platforms_and_their_prefixes["linux"] = folder
    try:
        run = with_msal if sdk == "msal" else with_azure_identity
        first, second, source = run(resource, client_id)
        print(json.dumps({"sdk": sdk, "claims": claims(first), "same_token": first == second, "second_source": source}))
    except Exception as error:  # the report names the failure for the Swift test
        print(json.dumps({"sdk": sdk, "error": f"{type(error).__name__}: {error}"}))
        sys.exit(1)


if __name__ == "__main__":
    main()
