/// What a request gets once every recorded response for it has been replayed.
public enum AfterLastPolicy: String, Sendable, Hashable, CaseIterable {
    /// Keep replaying the last recorded response (the default).
    case `repeat`
    /// Start over from the first recorded response.
    case cycle
    /// Answer as unmatched, saying the match was used up.
    case fail
}
