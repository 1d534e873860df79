/// The request headers that make one URL answer differently, compared by default whenever the recorded request
/// carried them: `Range`, Azure's `x-ms-range` and `If-Range` by value, so that a ranged read gets the bytes of the
/// range it asks for;
/// `If-None-Match` and `If-Modified-Since` by presence, so that a conditional request gets the recorded `304`
/// and an unconditional one the recorded `200`. Validator values are not compared: a client sends back the
/// `ETag` or `Last-Modified` that replay served it, or one from a cache filled on another run.
///
/// A recorded request that carried none of them does not compare them: cassettes recorded without them
/// match as before. Where recordings of both kinds would answer, the one that carried them wins (see
/// ``ReplayIndex``).
struct RequestConditions: Sendable, Hashable {
    /// `Range` values, in order; empty when absent.
    var range: [String] = []
    /// `x-ms-range` values (Azure Storage's `Range`), in order; empty when absent.
    var msRange: [String] = []
    /// `If-Range` values, in order; empty when absent.
    var ifRange: [String] = []
    /// Whether `If-None-Match` or `If-Modified-Since` was sent.
    var isConditional = false

    /// Which of the conditions a recorded request carried, so which a received one is compared on.
    struct Compared: Sendable, Hashable {
        var range: Bool
        var msRange: Bool
        var ifRange: Bool
        var conditional: Bool

        var isEmpty: Bool { !range && !msRange && !ifRange && !conditional }
    }

    /// No conditions.
    init() {}

    /// The conditions among `headers`; one pass over the lines, since this runs for every request.
    init(_ headers: HTTPHeaders) {
        // By index, lengths first: no line is copied, and almost every header differs in length from all five names.
        let lines = headers.lines
        for index in lines.indices {
            switch lines[index].name.utf8.count {
            case 5 where lines[index].name.caseInsensitiveEquals("Range"): range.append(lines[index].value)
            case 8 where lines[index].name.caseInsensitiveEquals("If-Range"): ifRange.append(lines[index].value)
            case 10 where lines[index].name.caseInsensitiveEquals("x-ms-range"): msRange.append(lines[index].value)
            case 13 where lines[index].name.caseInsensitiveEquals("If-None-Match"): isConditional = true
            case 17 where lines[index].name.caseInsensitiveEquals("If-Modified-Since"): isConditional = true
            default: break
            }
        }
    }

    var isEmpty: Bool { range.isEmpty && msRange.isEmpty && ifRange.isEmpty && !isConditional }

    /// What a recorded request with these conditions compares.
    var compared: Compared {
        Compared(range: !range.isEmpty, msRange: !msRange.isEmpty, ifRange: !ifRange.isEmpty, conditional: isConditional)
    }

    /// These (received) conditions without those `compared` leaves out.
    func keeping(_ compared: Compared) -> RequestConditions {
        var kept = RequestConditions()
        if compared.range { kept.range = range }
        if compared.msRange { kept.msRange = msRange }
        if compared.ifRange { kept.ifRange = ifRange }
        if compared.conditional { kept.isConditional = isConditional }
        return kept
    }
}
