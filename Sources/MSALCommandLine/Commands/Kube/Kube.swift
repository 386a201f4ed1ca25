import ArgumentParser

/// `msal kube …`: msal as kubectl's credential plugin for clusters with Microsoft Entra sign-in (AKS), in place of
/// kubelogin.
struct Kube: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kube",
        abstract: "kubectl's credential plugin for clusters with Microsoft Entra sign-in (AKS), as kubelogin is.",
        discussion: """
            A kubeconfig user that runs msal:
              users:
              - name: aks-user
                user:
                  exec:
                    apiVersion: client.authentication.k8s.io/v1beta1
                    command: msal
                    args: [kube, get-token, --login, devicecode, --server-id, 6dae42f8-4368-4678-94ff-3960e28e3630,
                           --client-id, 80faf920-1908-4b52-b5ef-a8e7bedfc67a, --tenant-id, TENANT,
                           --environment, AzurePublicCloud]
            msal kube convert-kubeconfig rewrites the users of a kubeconfig written for kubelogin (or the old azure \
            auth provider) to that form.
            """,
        subcommands: [KubeGetToken.self, KubeConvertKubeconfig.self])
}
