extension CassetteServer {
    /// What a server does with each request: answer it from the cassettes, forward it to the real upstream,
    /// or both. The modes follow VCR's record modes (`:none`, `:all`, `:new_episodes`), plus a plain proxy.
    ///
    /// Every mode but ``replay`` needs ``Configuration/recording`` (the upstream, and where the cassette
    /// goes). Fault plans apply in ``replay`` mode only, so that nothing injected is ever recorded.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Answer from the cassettes only; nothing reaches the network. The default (VCR's `:none`).
        case replay
        /// Forward every request to the upstream and record every exchange (VCR's `:all`). The cassette
        /// file, when one is named, must not exist yet: recording never replaces a cassette.
        case record
        /// Replay what the cassettes (including the cassette file, when it exists) match; forward the rest
        /// and append those exchanges to the cassette file (VCR's `:new_episodes`). Interactions recorded
        /// during the run are not replayed during it, so a repeated request is forwarded and recorded again,
        /// as a stateful upstream answers it.
        case replayOrRecord
        /// Forward every request and record nothing: a reverse proxy whose traffic shows in the journal.
        case passThrough

        /// Whether requests may reach the upstream.
        var forwards: Bool { self != .replay }

        /// Whether forwarded exchanges are kept in a cassette.
        var records: Bool { self == .record || self == .replayOrRecord }
    }
}
