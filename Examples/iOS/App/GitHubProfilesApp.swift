// The example app on iOS: one screen that shows a GitHub profile, the same line for the same command as the
// command-line app (`profiles-app`) prints, so the UI test asserts what the Linux child-process test asserts.
// Only checked by reading: there is no Mac where this project is developed (see the Platforms article).
import GitHubProfiles
import SwiftUI

#if DEBUG
import MockServerAppRouting
#endif

@main
struct GitHubProfilesApp: App {
    init() {
        #if DEBUG
        // Before any request: without MOCKSERVER_APP_SERVER in the launch environment this does nothing.
        do { _ = try AppRouting.activate() } catch { fatalError("\(error)") }
        #endif
    }

    var body: some Scene {
        WindowGroup { ProfileScreen() }
    }
}

/// A login field, a button, and the line the last command answered with.
struct ProfileScreen: View {
    @State private var login = "octocat"
    @State private var answer = "No profile yet."
    private let service = ProfileService()

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            TextField("GitHub login", text: $login)
                .textFieldStyle(.roundedBorder)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
                .accessibilityIdentifier("login")
            Button("Show profile") {
                let command = "profile \(login)"
                answer = "Loading…"  // the UI test waits for the line to change from this
                Task { answer = await ProfileCommand.answer(command, with: service) }
            }
            .accessibilityIdentifier("show")
            Text(answer)
                .accessibilityIdentifier("answer")
        }
        .padding()
    }
}
