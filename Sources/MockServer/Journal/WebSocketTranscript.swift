import Foundation
import ServiceReplayShared

/// What has crossed one WebSocket conversation so far, as the journal and the control API show it: written by
/// whatever plays or relays the conversation, read by the journal entry of its upgrade request.
///
/// Bounded: the first ``keptLimit`` messages are kept, later ones only counted, so an endless feed costs a fixed
/// amount of memory.
package final class WebSocketTranscript: Sendable {
    /// How many messages are kept.
    static let keptLimit = 1000

    /// The conversation at one moment.
    package struct Snapshot: Sendable, Hashable {
        /// The messages kept, in order, each with its offset from the upgrade.
        package var messages: [RecordedWebSocket.Message] = []
        /// How many messages crossed in all, the ones not kept included.
        package var messageCount = 0
        /// How it ended; `nil` while it is open.
        package var ending: RecordedWebSocket.Ending?
        /// Why the server ended it, when a client message was not the recorded one or a fault fired: one sentence.
        package var note: String?
    }

    private let start = ContinuousClock.now
    private let state = Lock(Snapshot())

    /// An empty transcript whose offsets count from now (the upgrade).
    package init() {}

    /// Milliseconds since the upgrade.
    package var offsetMs: Int {
        Int((DurationSpelling.seconds(ContinuousClock.now - start) * 1000).rounded(.down))
    }

    /// Notes a message sent by `side` now, and returns it with its offset.
    @discardableResult
    package func append(from side: RecordedWebSocket.Side, _ content: RecordedWebSocket.Content) -> RecordedWebSocket.Message {
        let message = RecordedWebSocket.Message(from: side, offsetMs: offsetMs, content)
        state.withLock { snapshot in
            snapshot.messageCount += 1
            if snapshot.messages.count < Self.keptLimit { snapshot.messages.append(message) }
        }
        return message
    }

    /// Notes how the conversation ended, and why the server ended it when it did so on purpose; the first ending wins.
    package func end(_ ending: RecordedWebSocket.Ending, note: String? = nil) {
        state.withLock { snapshot in
            guard snapshot.ending == nil else { return }
            snapshot.ending = ending
            if let note { snapshot.note = note }
        }
    }

    /// The conversation now.
    package var snapshot: Snapshot { state.withLock { $0 } }
}
