/// An interaction as answers and the journal name it once it matched: its reference and the status its reply
/// carries. A prepared cassette builds one per interaction, once, so that an answer and the journal entry it
/// leaves share it with one retain instead of copying the reference's strings per request.
final class MatchedInteraction: Sendable {
    let reference: InteractionReference
    /// The status of the recorded reply; `nil` for a replayed transport failure.
    let status: Int?
    /// The kind of the recorded transport failure it replays, `nil` when it answers.
    let failure: TransportFailure.Kind?

    init(reference: InteractionReference, status: Int?, failure: TransportFailure.Kind? = nil) {
        self.reference = reference
        self.status = status
        self.failure = failure
    }
}
