import ReflexCore
#if canImport(Glibc)
import Glibc
#endif

/// Where the remote's page is: `$REFLEX_REMOTE_PAGE` if set, else where the package installed
/// it (share/reflex/remote), else a clone's Remote/ folder.
public enum RemotePage {
    public static func locate(environment: String?, executablePath: String) -> String? {
        var candidates: [String] = []
        if let environment, !environment.isEmpty { candidates.append(environment) }
        candidates += ResourceSearch.candidates(executablePath: executablePath, installed: "remote", inRepository: "Remote")
        return candidates.first { access($0 + "/index.html", R_OK) == 0 }
    }
}
