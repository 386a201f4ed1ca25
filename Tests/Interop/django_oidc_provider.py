"""An OpenID provider we did not write, for the library's OpenID Connect authority tests: django-oauth-toolkit's
OIDC provider (Django's login form, DOT's consent page, PKCE, refresh tokens, RP-initiated logout), set up as its
documentation says, on a free loopback port.

    python django_oidc_provider.py DIR [PORT]

PORT is 0 (any free one) unless given; a port already taken stops it with status 3. DIR (empty, the caller's) gets the SQLite database and the login page's template. One user, `ada` with the password
read from the environment variable OIDC_TEST_PASSWORD, and one public client, `msal-swift-tests`, whose redirect
URI is http://127.0.0.1 on any port (RFC 8252). With OIDC_REFRESH_ID_TOKEN=0 in the environment a refresh is
answered without an ID token (oauthlib's refresh_id_token hook), as some providers answer. Prints one JSON line, {"issuer", "port"}, once it listens, and stops
when its standard input closes.
"""

import json
import os
import secrets
import sys
import threading

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

directory = sys.argv[1]
requested_port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
templates = os.path.join(directory, "templates", "registration")
os.makedirs(templates, exist_ok=True)
with open(os.path.join(templates, "login.html"), "w") as page:
    page.write(
        "<!doctype html><title>Sign in</title><h1>Sign in</h1>"
        '<form method="post" action="">{% csrf_token %}'
        '<input type="hidden" name="next" value="{{ next }}">'
        '<label>Username <input type="text" name="username"></label>'
        '<label>Password <input type="password" name="password"></label>'
        '{% if form.errors %}<p class="error">Wrong username or password.</p>{% endif %}'
        '<button type="submit" id="signin">Sign in</button></form>'
    )

key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
pem = key.private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
).decode()

from django.conf import settings  # noqa: E402

settings.configure(
    DEBUG=False,
    SECRET_KEY=secrets.token_urlsafe(32),
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    INSTALLED_APPS=[
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "oauth2_provider",
    ],
    MIDDLEWARE=[
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
    ],
    ROOT_URLCONF=__name__,
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(directory, "db.sqlite3")}},
    TEMPLATES=[
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [os.path.join(directory, "templates")],
            "APP_DIRS": True,
            "OPTIONS": {
                "context_processors": [
                    "django.template.context_processors.request",
                    "django.contrib.auth.context_processors.auth",
                ]
            },
        }
    ],
    LOGIN_URL="/accounts/login/",
    USE_TZ=True,
    DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
    PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"],
    OAUTH2_PROVIDER={
        "OIDC_ENABLED": True,
        "OIDC_RSA_PRIVATE_KEY": pem,
        "PKCE_REQUIRED": True,
        "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
        "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
        "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
        "OAUTH2_VALIDATOR_CLASS": __name__ + ".Validator",
        "SCOPES": {
            "openid": "OpenID Connect",
            "profile": "Your name and username",
            "email": "Your email address",
            "offline_access": "Stay signed in",
            "notes.read": "Read your notes",
        },
    },
)

import django  # noqa: E402

django.setup()

from django.contrib.auth import views as auth_views  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.urls import include, path  # noqa: E402
from oauth2_provider.models import get_application_model  # noqa: E402
from oauth2_provider.oauth2_validators import OAuth2Validator  # noqa: E402


class Validator(OAuth2Validator):
    """The claims a deployment adds to its ID tokens (django-oauth-toolkit's documented hook)."""

    oidc_claim_scope = OAuth2Validator.oidc_claim_scope

    def refresh_id_token(self, request):
        return os.environ.get("OIDC_REFRESH_ID_TOKEN", "1") != "0"

    def get_additional_claims(self, request):
        user = request.user
        return {
            "preferred_username": user.username,
            "name": user.get_full_name(),
            "email": user.email,
        }


urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
]

call_command("migrate", verbosity=0)
User.objects.create_user(
    "ada", email="ada@example.test", password=os.environ["OIDC_TEST_PASSWORD"], first_name="Ada", last_name="Lovelace"
)
get_application_model().objects.create(
    client_id="msal-swift-tests",
    name="MSAL Swift tests",
    client_type="public",
    authorization_grant_type="authorization-code",
    redirect_uris="http://127.0.0.1 http://127.0.0.1/",
    post_logout_redirect_uris="http://127.0.0.1/signed-out",
    algorithm="RS256",
    skip_authorization=False,
)


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


try:
    server = ThreadedWSGIServer(("127.0.0.1", requested_port), QuietHandler)
except OSError as error:
    print("cannot listen on 127.0.0.1:%d: %s" % (requested_port, error), file=sys.stderr)
    sys.exit(3)
server.set_app(get_wsgi_application())
port = server.server_address[1]
print(json.dumps({"issuer": "http://127.0.0.1:%d/o" % port, "port": port}), flush=True)


def stop_when_stdin_closes():
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
server.serve_forever()
