import ServiceKit

/// What the example's apps show for a command, one line each: the command-line app (`profiles-app`) prints it,
/// the iOS app (`Examples/iOS`) shows it, so their UI tests assert the same lines.
public enum ProfileCommand {
    /// The line answering `command`: `profile LOGIN` gives the profile, or the error that ended the call,
    /// named by its family (service-level or network-level, ServiceKit's two); anything else is named as an
    /// unknown command.
    public static func answer(_ command: String, with service: ProfileService) async -> String {
        let words = command.split(separator: " ").map(String.init)
        guard words.first == "profile", words.count == 2 else {
            return "error: unknown command '\(command)'; the only command is 'profile LOGIN'"
        }
        do {
            let profile = try await service.profile(login: words[1])
            return "\(command): \(profile.name ?? "no name") (\(profile.login)), \(profile.publicRepos) public repositories"
        } catch {
            return "\(command): \(describe(error))"
        }
    }

    /// What the apps show for a failed call: which family the error belongs to, then its sentence.
    static func describe(_ error: any Error) -> String {
        switch error {
        case ProfileService.Failure.notFound(let login): "service error: GitHub knows no user \(login)"
        case ProfileService.Failure.status(let status): "service error: GitHub answered HTTP \(status)"
        case let error as WebServiceError where error.family == .service: "service error: \(error.localizedDescription)"
        case let error as WebServiceError: "network error: \(error.localizedDescription)"
        default: "error: \(error)"
        }
    }
}
