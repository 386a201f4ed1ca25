/// The built-in directory: what `identity-emulator` serves when started without `--config`.
extension Directory {
    /// Well-known ids of the built-in directory, for tests and the CLI's defaults.
    public enum DemoIDs {
        public static let contosoTenant = "8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b"
        public static let fabrikamTenant = "3f6c9a2e-7b14-4d8e-a5c2-91e0b7d4f386"
        public static let externalTenant = "c1a2b3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
        public static let publicClient = "9f1b8c3e-2d4a-4b6e-8f0a-1c2d3e4f5a6b"
        public static let externalPublicClient = "5e2a7c91-3b6d-4f80-9a1e-d4c7b2e9f013"
        /// The External ID tenant's custom URL domain: a name under `localhost`, which stays on this machine.
        public static let externalCustomURLDomain = "login.contosocustomers.localhost"
        public static let api1 = "b7c4e1a9-6d2f-4e8b-a3c5-1f9d0e7b2a64"
        public static let api2 = "e3f9a6d2-1c8b-4a7e-b5d0-9c2e4f6a8b13"
        public static let graph = "00000003-0000-0000-c000-000000000000"
        public static let confidentialClient = "2c9e5b7a-8f14-4d3c-b6a9-7e0d1f2c3b45"
        public static let confidentialSecret = "demo-daemon-secret-0c3f9e"
        /// The daemon's certificate (RSA-2048, self-signed `CN=msal-demo-daemon`), registered as its key
        /// credential. A demo credential, public like the demo secret: never trust it outside the emulator.
        public static let daemonCertificatePEM = """
            -----BEGIN CERTIFICATE-----
            MIIDGTCCAgGgAwIBAgIUH/n1K9JsTyzRQCPI99xi+QnAxi4wDQYJKoZIhvcNAQEL
            BQAwGzEZMBcGA1UEAwwQbXNhbC1kZW1vLWRhZW1vbjAgFw0yNjExMjMxMDU2NDJa
            GA8yMTI2MTAzMDEwNTY0MlowGzEZMBcGA1UEAwwQbXNhbC1kZW1vLWRhZW1vbjCC
            ASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBALDpCEVY3cAbCgpUPAbxZ0PL
            0uKRd3owkJbDwc/xjuuK1WGvSqWj6OzqYHvz4bN8WpP5iYXdhNWYUx0N4nHNbpVE
            BYq7VNmvtLEx6AsnG/AUBxMG+HsH24OJ+/jmLTzzZwqF7/Mx8c9YFUVLz3Z7Ohs6
            nZGSiprVgJHbybTKEsnL9gM2yyOBHxI01gMCYRjw0X6NApweZEBOT64q+iA6kppe
            w24dreZOhc+QX9PakfL599h3ScmGMuUo7wwjhibnLwaKGHzCw/W9egVHsFHS7xUl
            pX5485bIqPjDQc63obQCejM/4opNCO3sOyLrTUs7NCNiGMX3qJcvrmyHa08ELlMC
            AwEAAaNTMFEwHQYDVR0OBBYEFH87GNRaigzqTI/GRnGqWnhF5JvMMB8GA1UdIwQY
            MBaAFH87GNRaigzqTI/GRnGqWnhF5JvMMA8GA1UdEwEB/wQFMAMBAf8wDQYJKoZI
            hvcNAQELBQADggEBAB351rjAPZZb+wS53VluCVQ0GIEKkWgPXw2JAMWsoBuxdWyO
            4bGUmu6P92NVUHILv/ABTf3WbDVLSQoAHW48+zbYeMq6NbgIT7sLpMvZEX26A7fW
            Y/mG9LXwKw8z+kjI8JNbcpWOyL/XF+YNITmvoMw0L8wtYura90bf6QkJaAPRjZrY
            mSnqT/xNHKv8ASnqpBUu5QiNgm9WUIxCYWGAjlh+qtx7vKWBit51DkOPQHa0al72
            hVcJXG2LAn9f6H2u3AWWYW/GjvABKI3P4nlX/vcoiyroSLfjM0xQvcpzCbyYdT8P
            dHGuUwccOO/xRem2T1qdt2DSIDQ0URNg8xunnWw=
            -----END CERTIFICATE-----
            """
        /// The private key of ``daemonCertificatePEM`` (PKCS#8 PEM), to sign the daemon's client
        /// assertions. A demo credential, public like the demo secret.
        public static let daemonPrivateKeyPEM = """
            -----BEGIN PRIVATE KEY-----
            MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCw6QhFWN3AGwoK
            VDwG8WdDy9LikXd6MJCWw8HP8Y7ritVhr0qlo+js6mB78+GzfFqT+YmF3YTVmFMd
            DeJxzW6VRAWKu1TZr7SxMegLJxvwFAcTBvh7B9uDifv45i0882cKhe/zMfHPWBVF
            S892ezobOp2Rkoqa1YCR28m0yhLJy/YDNssjgR8SNNYDAmEY8NF+jQKcHmRATk+u
            KvogOpKaXsNuHa3mToXPkF/T2pHy+ffYd0nJhjLlKO8MI4Ym5y8Gihh8wsP1vXoF
            R7BR0u8VJaV+ePOWyKj4w0HOt6G0AnozP+KKTQjt7Dsi601LOzQjYhjF96iXL65s
            h2tPBC5TAgMBAAECggEAG+b9O3bLLs/08vEbMJslht9gaQS5e+ep/mVsrZ/zQzo3
            8nrDwsFJ7QgAZLxv9i+gV6NtadQo7cljHnuAoiNdFCTQ3PMz7EuWq7Xr28p00RZP
            kVQxn7H7ENGUEMs5Clp3f4Tldg2EDohdfnr5Az5nSUEi9gFPZCFVcGviceXHNdV2
            U6TIEDjw2S0RONH6gLEcjFKzjQmwapUSdekPchQIOr88KznWH0Ve7/v0nsNaED7b
            XVa0d8HWo6AQ+WAZG/W22ywgsuo1Iu5wo5a19h62b8dIm+6O9tHE/4xbsqHUCXf9
            hLaUAAnztusqJmOE4v2SEXnGx7aqZcGNf8xHQlvGMQKBgQDxWLAiaNZYjnKN65t0
            TxftIQRyQ+u4emKIe/V5L4yCoIIhlvWq7Vu3xAltMc3Mzhiz2h5GBbeQuSidAGDj
            +mYcXEGsBAJIJD8jGgp/FrvKCaMgTGpkMrwhYphv1g9Ep51rYe4b9gkrINgsQB6e
            EYfuNSopDcK6V3o41gmwQEh4MQKBgQC7psvD4roarlwMLwyX2OCzMWF8OmXT2eVD
            cC/ZGxfh6mVe5bTgHF1oVQl9bpkTw2NfzTWEPhjZY9HxS/DvXrK1sbNuVyuycAj4
            BmMPJ/qJslg4wq1kE7mdlXcIiEp7QZ4VU4PcYh0pjY4U3aGrok2XqMCElFiXgXpP
            c3OvuTNxwwKBgQDkKLe6j+mzJlddm5MGzY8M+d2+OD+r0uc7qBRUUINBKoRbRN9S
            i7ndbFKNDDxGlb/8pwNfpx/2jVS7uBPg8mN+BCmBePi/QqT9hizOIKu/QIUaj6M0
            vlHkLdV2RKOCgALt9VKo1FuujgpPKv7G6EPdCh2lWgDxMKm2+YGHQf5AwQKBgC52
            by+SXOgsUehGYgTbE0/rIysiPoJFCmo3RfGorrImWnEzySRQgaRKoe3ny4lEML/Q
            zLZwtbBl8d6gIgjy1qb8V+QzO0OUT/QxiKeBC5y6hvOO6GXGKIhnMLDxJhf8uEqp
            ghW4SWY3gX2THuujZTju9LQfEwx4Z7Nyb6uL3LwHAoGAW+cUe4GIGityWfRYkznF
            19V0CHTDhYRsW//2DvQt+3nM+9ZpI8U112NnkY4cnFTI4vu7buSlHIOv7iE/eLFN
            VJhZ2XRsRYFINtWhdMmJxiYrkSioF70EaOSRslwq6KhjEUeGHj7zYJVbluEIdtEh
            4eK3LTyguQHh6/FF+UkCbRc=
            -----END PRIVATE KEY-----
            """
        /// API 1's client secret, for on-behalf-of calls with API 1 as the middle tier. A demo credential.
        public static let api1Secret = "demo-api1-secret-7d2e41"
        /// The sample web app (`webapp-sample`), a confidential client in the External ID tenant.
        public static let webApp = "a6d3f1c8-4b2e-4f7a-9c5d-3e8b1a7f2c60"
        /// The sample web app's client secret. A demo credential.
        public static let webAppSecret = "demo-webapp-secret-5a8c13"
        /// The subject of the daemon's federated credential on the built-in workload issuer.
        public static let daemonWorkloadSubject = "system:serviceaccount:demo:daemon"
        public static let familyClientOne = "d4a81f6c-2e7b-4c95-8a3d-6b0f1e9c7a52"
        public static let familyClientTwo = "f7b3e2c8-9a1d-4e6f-b0c4-5d8a2e1f9b37"
        /// Azure Resource Manager (`https://management.azure.com/`, `https://management.core.windows.net/`), the
        /// resource of `az login`; in every tenant, as Microsoft's.
        public static let azureResourceManager = FirstPartyApplications.azureResourceManager.clientId
        /// Azure Key Vault (`https://vault.azure.net`); in every tenant, as Microsoft's.
        public static let keyVault = FirstPartyApplications.keyVault.clientId
        /// The Azure CLI's public client, in every tenant, as Microsoft's.
        public static let azureCLI = FirstPartyApplications.azureCLI.clientId
        /// The Azure Kubernetes Service Entra server (kubelogin's `--server-id`), in every tenant, as Microsoft's.
        public static let aksServer = FirstPartyApplications.aksServer.clientId
        /// The Azure Kubernetes Service Entra client (a kubeconfig's `--client-id`), in every tenant, as Microsoft's.
        public static let aksClient = FirstPartyApplications.aksClient.clientId
        /// Azure DevOps (Azure Repos' resource, what `msal git-credential` gets tokens for), in every tenant.
        public static let azureDevOps = FirstPartyApplications.azureDevOps.clientId
        /// The Contoso subscription the demo hosts and identities live in ("Contoso Production").
        public static let subscription = "4e2f7a1c-9b3d-4c6e-8f0a-2b4d6e8f0a1c"
        /// Contoso's second subscription ("Contoso Development").
        public static let developmentSubscription = "9d3b5f7a-1c2e-4a4b-8d6f-0e2a4c6e8b1d"
        /// Fabrikam's subscription ("Fabrikam Retail").
        public static let fabrikamSubscription = "2a4c6e8f-0b1d-4f3a-9c5e-7d9f1b3d5f7a"
        /// Fabrikam's federated domain: its users sign in at `sts.fabrikam.com` (AD FS), so the user realm says
        /// `Federated`, a `domain_hint` sends the browser there, and the password grant refuses them.
        public static let federatedDomain = "fabrikam.com"
        /// The system-assigned identity of each demo host, by host name.
        public static let systemAssignedIdentities = [
            "vm-1": "6a1f3c5e-8b2d-4e7f-9a0c-1d3e5f7a9b2c", "app-1": "b2c4e6f8-0a1b-4c3d-8e5f-7a9b1c3d5e7f",
            "sf-1": "c3d5e7f9-1b2c-4d4e-9f6a-8b0c2d4e6f8a", "ml-1": "d4e6f8a0-2c3d-4e5f-8a7b-9c1d3e5f7a9b",
            "arc-1": "e5f7a9b1-3d4e-4f6a-9b8c-0d2e4f6a8b0c",
        ]
        /// A user-assigned identity (`id-orders`) attached to vm-1, app-1 and arc-1.
        public static let userAssignedIdentity = "f6a8b0c2-4e5f-4a7b-8c9d-1e3f5a7b9c1d"
        /// Its object (principal) id.
        public static let userAssignedObjectID = "0a2c4e6f-8b1d-4f3a-9c5e-7b9d1f3a5c7e"
        /// Its Azure resource id.
        public static let userAssignedResourceID =
            "/subscriptions/\(subscription)/resourceGroups/demo/providers/Microsoft.ManagedIdentity/userAssignedIdentities/id-orders"
        /// The `IDENTITY_HEADER` (or `MSI_SECRET`) Azure gives the processes of the demo hosts that use one.
        public static let hostSecret = "demo-host-identity-header-3b9f"
        /// An External ID customer who must pass MFA (`mfaRequired`) and has two registered methods: an email
        /// code to `lee.backup@example.com` (``mfaEmailMethod``) and a text to `+15555550123` (``mfaSMSMethod``).
        public static let mfaUser = "lee@example.com"
        /// ``mfaUser``'s password. A demo credential.
        public static let mfaUserPassword = "Lee-Demo-Pass7"
        /// The id of ``mfaUser``'s email method (the default: listed first).
        public static let mfaEmailMethod = "a1b2c3d4-0000-4000-8000-00000000e001"
        /// The id of ``mfaUser``'s SMS method.
        public static let mfaSMSMethod = "a1b2c3d4-0000-4000-8000-00000000e002"
        /// An External ID customer who must pass MFA but has no method yet: signing in registers one just in time.
        public static let registrationUser = "noah@example.com"
        /// ``registrationUser``'s password. A demo credential.
        public static let registrationUserPassword = "Noah-Demo-Pass8"
        /// The Azure AD B2C tenant `fabrikamb2c.onmicrosoft.com`, with the standard user flows.
        public static let b2cTenant = "775527ff-9a37-4307-8b3d-cc311f58d925"
        /// The B2C tenant's public client (`msal-demo-b2c`), with its API's scopes consented by an administrator.
        public static let b2cPublicClient = "e5c7a1d3-9b2f-4e6a-8c0d-2f4b6d8e0a1c"
        /// The B2C tenant's API, `https://fabrikamb2c.onmicrosoft.com/demoapi` (`demo.read`, `demo.write`).
        public static let b2cAPI = "f1d3b5e7-0a2c-4e4b-9d6f-8a0c2e4b6d8f"
        /// The B2C tenant's consumer (a local account signing in with its email).
        public static let b2cUser = "emily@example.com"
        public static let b2cUserPassword = "Emily-Demo-Pass9"
    }

    /// The demo hosts, one of each kind: `vm-1` (IMDS), `app-1` (App Service), `sf-1` (Service Fabric), `ml-1`
    /// (Azure Machine Learning), `shell-1` (Cloud Shell, signed in as Megan) and `arc-1` (Azure Arc), each with a
    /// system-assigned identity (but Cloud Shell), and `id-orders` attached to vm-1, app-1 and arc-1.
    static func demoHosts() -> (identities: [AzureManagedIdentity], hosts: [AzureHost]) {
        let ids = DemoIDs.self
        let group = "/subscriptions/\(ids.subscription)/resourceGroups/demo/providers"
        let resourceTypes = [
            "vm-1": "Microsoft.Compute/virtualMachines", "app-1": "Microsoft.Web/sites",
            "sf-1": "Microsoft.ServiceFabric/managedclusters/applications",
            "ml-1": "Microsoft.MachineLearningServices/workspaces/computes",
            "arc-1": "Microsoft.HybridCompute/machines",
        ]
        var identities = ids.systemAssignedIdentities.sorted { $0.key < $1.key }.map { host, clientID in
            AzureManagedIdentity(
                clientId: clientID, objectId: TokenIssuer.servicePrincipalID(clientID),
                resourceId: "\(group)/\(resourceTypes[host]!)/\(host)", tenant: ids.contosoTenant, displayName: host,
                grantedAppRoles: ["https://graph.microsoft.com/User.Read.All"])
        }
        identities.append(
            AzureManagedIdentity(
                clientId: ids.userAssignedIdentity, objectId: ids.userAssignedObjectID,
                resourceId: ids.userAssignedResourceID, tenant: ids.contosoTenant, displayName: "id-orders",
                grantedAppRoles: ["api://\(ids.api1)/ToDoList.Read.All"]))
        let system = ids.systemAssignedIdentities
        let hosts = [
            AzureHost(
                name: "vm-1", kind: .virtualMachine, systemAssignedIdentity: system["vm-1"],
                userAssignedIdentities: [ids.userAssignedIdentity]),
            AzureHost(
                name: "app-1", kind: .appService, secret: ids.hostSecret, systemAssignedIdentity: system["app-1"],
                userAssignedIdentities: [ids.userAssignedIdentity]),
            AzureHost(
                name: "sf-1", kind: .serviceFabric, secret: ids.hostSecret, systemAssignedIdentity: system["sf-1"]),
            AzureHost(
                name: "ml-1", kind: .machineLearning, secret: ids.hostSecret, systemAssignedIdentity: system["ml-1"]),
            AzureHost(name: "shell-1", kind: .cloudShell, user: "MeganB@contoso.onmicrosoft.com"),
            AzureHost(
                name: "arc-1", kind: .azureArc, systemAssignedIdentity: system["arc-1"],
                userAssignedIdentities: [ids.userAssignedIdentity]),
        ]
        return (identities, hosts)
    }

    /// A workforce tenant (Contoso), a second one (Fabrikam, with a federated domain) where Megan is a guest, an
    /// External ID tenant (its customers: Jane with a password, Sam with email codes only, Lee and Noah who must pass
    /// MFA, Lee with two methods and Noah with none), their users, the demo public clients, API 1 (also an on-behalf-of middle tier with a
    /// secret), API 2, Graph, a daemon (secret, certificate and workload federation, with application
    /// permissions on API 1 and Graph), a FOCI pair, the sample web app, Azure Resource Manager and Key Vault,
    /// and one Azure host of each kind with its managed identities.
    public static var demo: Directory {
        let ids = DemoIDs.self
        let azure = demoHosts()
        let loopback = [
            "http://localhost", "http://127.0.0.1", "https://login.microsoftonline.com/common/oauth2/nativeclient",
        ]
        let api1 = "api://\(ids.api1)"
        let api2 = "api://\(ids.api2)"
        let b2cAPI = "https://fabrikamb2c.onmicrosoft.com/demoapi"
        return Directory(
            tenants: [
                Tenant(
                    id: ids.contosoTenant, domain: "contoso.onmicrosoft.com", displayName: "Contoso", kind: .workforce,
                    subscriptions: [
                        AzureSubscription(id: ids.subscription, displayName: "Contoso Production"),
                        AzureSubscription(id: ids.developmentSubscription, displayName: "Contoso Development"),
                    ]),
                Tenant(
                    id: ids.fabrikamTenant, domain: "fabrikam.onmicrosoft.com", displayName: "Fabrikam",
                    kind: .workforce,
                    subscriptions: [AzureSubscription(id: ids.fabrikamSubscription, displayName: "Fabrikam Retail")],
                    federatedDomains: [FederatedDomain(name: ids.federatedDomain, federationHost: "sts.fabrikam.com")]),
                Tenant(
                    id: ids.externalTenant, domain: "contosocustomers.onmicrosoft.com",
                    displayName: "Contoso Customers", kind: .external, customURLDomains: [ids.externalCustomURLDomain]),
                Tenant(
                    id: ids.b2cTenant, domain: "fabrikamb2c.onmicrosoft.com", displayName: "Fabrikam B2C", kind: .b2c),
            ],
            users: [
                User(
                    id: "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f", tenant: ids.contosoTenant,
                    userPrincipalName: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1",
                    displayName: "Megan Bowen", givenName: "Megan", surname: "Bowen", jobTitle: "Marketing Manager",
                    mail: "MeganB@contoso.onmicrosoft.com", officeLocation: "12/1110", preferredLanguage: "en-US",
                    businessPhones: ["+1 412 555 0109"],
                    guestOf: [User.Guest(tenant: ids.fabrikamTenant, objectId: "a81f3c5e-7d2b-4e96-b0a4-c3e5f7a9d1b2")]),
                User(
                    id: "6e8c2a4f-1b3d-4f5a-9c7e-0d2f4a6b8c1e", tenant: ids.contosoTenant,
                    userPrincipalName: "AdeleV@contoso.onmicrosoft.com", password: "Adele-Demo-Pass2",
                    displayName: "Adele Vance", givenName: "Adele", surname: "Vance", jobTitle: "Retail Manager",
                    mail: "AdeleV@contoso.onmicrosoft.com", officeLocation: "18/2111", preferredLanguage: "en-US",
                    businessPhones: ["+1 425 555 0109"]),
                User(
                    id: "0f4b6d8a-3c5e-4a7b-9d1f-2e4a6c8b0d3f", tenant: ids.fabrikamTenant,
                    userPrincipalName: "AlexW@fabrikam.onmicrosoft.com", password: "Alex-Demo-Pass3",
                    displayName: "Alex Wilber", givenName: "Alex", surname: "Wilber", jobTitle: "Marketing Assistant",
                    mail: "AlexW@fabrikam.onmicrosoft.com", officeLocation: "131/1104", preferredLanguage: "en-US",
                    businessPhones: ["+1 858 555 0110"]),
                User(
                    id: "7a9c1e3f-5b7d-4f9a-8c2e-4f6a8c0e2b4d", tenant: ids.externalTenant,
                    userPrincipalName: "jane@example.com", password: "Jane-Demo-Pass4",
                    displayName: "Jane Customer", givenName: "Jane", surname: "Customer", mail: "jane@example.com"),
                User(
                    id: "8b0d2f4a-6c8e-4a0b-9d3f-5a7c9e1f3b5d", tenant: ids.externalTenant,
                    userPrincipalName: "sam@example.com", password: nil,
                    displayName: "Sam Codeonly", givenName: "Sam", surname: "Codeonly", mail: "sam@example.com"),
                User(
                    id: "9c1e3f5a-7b9d-4c1e-8f4a-6b8d0f2a4c6e", tenant: ids.externalTenant,
                    userPrincipalName: ids.mfaUser, password: ids.mfaUserPassword,
                    displayName: "Lee Strong", givenName: "Lee", surname: "Strong", mail: ids.mfaUser,
                    mfaRequired: true,
                    strongAuthMethods: [
                        StrongAuthMethod(id: ids.mfaEmailMethod, channel: "email", target: "lee.backup@example.com"),
                        StrongAuthMethod(id: ids.mfaSMSMethod, channel: "sms", target: "+15555550123"),
                    ]),
                User(
                    id: "ad2f4a6b-8c0e-4d2f-9a5b-7c9e1a3b5d7f", tenant: ids.externalTenant,
                    userPrincipalName: ids.registrationUser, password: ids.registrationUserPassword,
                    displayName: "Noah Newmethod", givenName: "Noah", surname: "Newmethod", mail: ids.registrationUser,
                    mfaRequired: true),
                User(
                    id: "1b3d5f7a-9c2e-4b4d-8f6a-0c2e4a6b8d0f", tenant: ids.b2cTenant, userPrincipalName: ids.b2cUser,
                    password: ids.b2cUserPassword, displayName: "Emily Braun", givenName: "Emily", surname: "Braun",
                    mail: ids.b2cUser),
            ],
            applications: [
                Application(
                    clientId: ids.publicClient, displayName: "msal-demo", tenant: ids.contosoTenant,
                    kind: .publicClient,
                    redirectUris: loopback, adminConsentedScopes: ["User.Read"]),
                Application(
                    clientId: ids.externalPublicClient, displayName: "msal-demo-external", tenant: ids.externalTenant,
                    kind: .publicClient, redirectUris: loopback,
                    adminConsentedScopes: [
                        "User.Read", "\(api1)/ToDoList.Read", "\(api1)/ToDoList.ReadWrite",
                        "\(api2)/ToDoList.Read", "\(api2)/ToDoList.ReadWrite",
                    ]),
                Application(
                    clientId: ids.api1, displayName: "ToDoList API 1", tenant: ids.externalTenant, kind: .api,
                    secret: ids.api1Secret, identifierUri: api1, scopes: ["ToDoList.Read", "ToDoList.ReadWrite"],
                    appRoles: ["ToDoList.Read.All"], adminConsentedScopes: ["User.Read", "\(api2)/ToDoList.Read"]),
                Application(
                    clientId: ids.api2, displayName: "ToDoList API 2", tenant: ids.externalTenant, kind: .api,
                    identifierUri: api2, scopes: ["ToDoList.Read", "ToDoList.ReadWrite"],
                    appRoles: ["ToDoList.Read.All"]),
                Application(
                    clientId: ids.graph, displayName: "Microsoft Graph", tenant: ids.contosoTenant, kind: .api,
                    identifierUri: "https://graph.microsoft.com",
                    scopes: ["User.Read", "User.ReadBasic.All", "Mail.Read", "Files.Read"], appRoles: ["User.Read.All"]),
                Application(
                    clientId: ids.confidentialClient, displayName: "msal-demo-daemon", tenant: ids.contosoTenant,
                    kind: .confidentialClient, redirectUris: ["http://localhost/callback"],
                    secret: ids.confidentialSecret,
                    keyCredentials: [KeyCredential(certificate: ids.daemonCertificatePEM)],
                    federatedCredentials: [
                        FederatedCredential(
                            name: "demo-workload", issuer: "{emulator}/_emulator/workload",
                            subject: ids.daemonWorkloadSubject, audiences: ["api://AzureADTokenExchange"])
                    ],
                    grantedAppRoles: ["\(api1)/ToDoList.Read.All", "https://graph.microsoft.com/User.Read.All"]),
                Application(
                    clientId: ids.familyClientOne, displayName: "Family App One", tenant: ids.contosoTenant,
                    kind: .publicClient, redirectUris: loopback, familyId: "1", adminConsentedScopes: ["User.Read"]),
                Application(
                    clientId: ids.familyClientTwo, displayName: "Family App Two", tenant: ids.contosoTenant,
                    kind: .publicClient, redirectUris: loopback, familyId: "1", adminConsentedScopes: ["User.Read"]),
                Application(
                    clientId: ids.webApp, displayName: "webapp-sample", tenant: ids.externalTenant,
                    kind: .confidentialClient,
                    redirectUris: [
                        "http://localhost/auth/redirect", "http://127.0.0.1/auth/redirect", "http://localhost/",
                        "http://127.0.0.1/",
                    ],
                    secret: ids.webAppSecret,
                    adminConsentedScopes: ["User.Read", "\(api1)/ToDoList.Read", "\(api1)/ToDoList.ReadWrite"]),
                Application(
                    clientId: ids.b2cPublicClient, displayName: "msal-demo-b2c", tenant: ids.b2cTenant,
                    kind: .publicClient, redirectUris: loopback,
                    adminConsentedScopes: ["\(b2cAPI)/demo.read", "\(b2cAPI)/demo.write"]),
                Application(
                    clientId: ids.b2cAPI, displayName: "Fabrikam B2C demo API", tenant: ids.b2cTenant, kind: .api,
                    identifierUri: b2cAPI, scopes: ["demo.read", "demo.write"]),
            ],
            managedIdentities: azure.identities, hosts: azure.hosts)
    }
}
