import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The append-only log a recording keeps beside its cassette (`NAME.json.log`), so that each exchange is made
/// durable with one small write, however large the cassette has grown, and so that a killed recorder loses
/// nothing a client was answered. Every reader (``Cassette/load(from:)``, ``Cassette/files(in:)``, the replay
/// engine) applies a pending log; the next recording into the cassette folds it in and removes it.
///
/// One compact JSON document per line, each ended by a newline (a torn last line is ignored):
/// - first, `{"format":"servicereplay-capture-log","version":1,"base":DIGEST,"cassette":{...}}`: the digest of
///   the cassette file the log extends (`"none"` when there was no file) and the cassette's fields, used when
///   there is no file;
/// - `{"interaction":{...}}` for each recorded exchange, in recording order;
/// - for a streamed response, written as it arrives so that a long stream is durable without being held in
///   memory: `{"stream":N,"head":{...}}` when its head arrives (the interaction with an empty stream body; N
///   numbers the log's streams from 0), `{"stream":N,"parts":[...]}` for the parts that each arrival
///   completes, and `{"stream":N,"end":"complete|broken|unfinished","durationMs":D}` when it ends: the stream
///   becomes the next logged interaction there. A stream the log never ends (the recorder was killed) is
///   read as ``RecordedStream/Ending/unfinished``, after every logged interaction;
/// - `{"checkpoint":M,"digest":DIGEST}`, written just before the cassette file is replaced by one holding the
///   first M logged interactions, whose bytes have that digest.
///
/// A log applies only to the file it names by digest: to the base file all its interactions, to a
/// checkpointed file those after the checkpoint. A file with any other digest (edited or replaced since) gets
/// nothing from the log, so a stale log is never applied twice or to the wrong cassette.
enum CaptureLog {
    static let format = "servicereplay-capture-log"
    /// The version written; version 1 (the same without streams) is read too.
    static let version = 2

    /// The log beside `cassette`: its path with `.log` appended.
    static func url(for cassette: URL) -> URL {
        cassette.appendingPathExtension("log")
    }

    /// What a log holds.
    struct Contents {
        /// The digest of the file the log extends, or `"none"`.
        var base: String
        /// The cassette's fields, for when there is no file.
        var cassette: Cassette
        /// The logged interactions, in order.
        var interactions: [Interaction]
        /// Digest → how many logged interactions the file with that digest holds.
        var checkpoints: [String: Int]

        /// The interactions the cassette file with `digest` (`"none"`: no file) lacks, or `nil` when the log
        /// does not belong to that file.
        func missing(fromFileWithDigest digest: String) -> ArraySlice<Interaction>? {
            if digest == base { return interactions[...] }
            guard let covered = checkpoints[digest] else { return nil }
            return interactions.dropFirst(covered)
        }
    }

    /// Reads the log at `url`; `nil` when its first line is not a capture log's. Interactions stop at the
    /// first line that is torn or unreadable, so a partly written tail is ignored.
    static func read(_ url: URL) -> Contents? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return parse(data, source: url.relativePath)
    }

    /// Reads a log's bytes (see ``read(_:)``); `source` names it in the interactions' decoding.
    static func parse(_ data: Data, source: String) -> Contents? {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()  // after the last newline: empty, or a torn line
        guard let first = lines.first, let header = try? CassetteJSON(parsing: Data(first)),
            header["format"]?.stringValue == format, case .number(let version)? = header["version"],
            let number = version.intValue, (1...Self.version).contains(number),
            let base = header["base"]?.stringValue, let fields = header["cassette"],
            let cassette = try? Cassette(json: fields, source: source)
        else { return nil }
        var contents = Contents(base: base, cassette: cassette, interactions: [], checkpoints: [:])
        var streams = OpenStreams()
        for line in lines.dropFirst() {
            guard let entry = try? CassetteJSON(parsing: Data(line)) else { break }
            if let value = entry["interaction"] {
                guard let interaction = try? Interaction(value, file: source, index: contents.interactions.count) else { break }
                contents.interactions.append(interaction)
            } else if case .number(let count)? = entry["checkpoint"], let covered = count.intValue, let digest = entry["digest"]?.stringValue {
                contents.checkpoints[digest] = covered
            } else if case .number(let number)? = entry["stream"], let id = number.intValue {
                let ended: Interaction?
                do {
                    ended = try streams.apply(entry, stream: id, file: source, index: contents.interactions.count)
                } catch {
                    break
                }
                if let ended { contents.interactions.append(ended) }
            } else {
                break
            }
        }
        contents.interactions += streams.unfinished()
        return contents
    }

    /// The streams a log has begun and not yet ended, as they are read.
    private struct OpenStreams {
        private var heads: [Int: Interaction] = [:]
        private var parts: [Int: [RecordedStream.Part]] = [:]

        /// An entry that does not fit: the log is read up to it.
        struct Unreadable: Error {}

        /// Applies a stream entry; returns the stream as an interaction when the entry ends it.
        /// - Throws: ``Unreadable`` when the entry is not a valid one for stream `id`.
        mutating func apply(_ entry: CassetteJSON, stream id: Int, file: String, index: Int) throws(Unreadable) -> Interaction? {
            if let head = entry["head"] {
                guard heads[id] == nil, let interaction = try? Interaction(head, file: file, index: index),
                    case .stream? = interaction.response?.body.form
                else { throw Unreadable() }
                heads[id] = interaction
                parts[id] = []
                return nil
            }
            guard heads[id] != nil else { throw Unreadable() }
            if entry["parts"] != nil {
                // Offsets never decrease across arrivals either, as a cassette requires.
                guard let reader = try? CassetteFieldReader(entry, file: file, interaction: index, path: "stream \(id)"),
                    let stream = try? reader.stream("parts"),
                    (stream.parts.first?.offsetMs ?? .max) >= (parts[id]?.last?.offsetMs ?? 0)
                else { throw Unreadable() }
                parts[id, default: []] += stream.parts
                return nil
            }
            guard let name = entry["end"]?.stringValue, let ending = RecordedStream.Ending(rawValue: name) else { throw Unreadable() }
            var durationMs: Int?
            if case .number(let number)? = entry["durationMs"] { durationMs = number.intValue }
            return assemble(id, ending: ending, durationMs: durationMs)
        }

        /// Every stream still open, in the order they began, as unfinished.
        mutating func unfinished() -> [Interaction] {
            heads.keys.sorted().compactMap { assemble($0, ending: .unfinished, durationMs: nil) }
        }

        private mutating func assemble(_ id: Int, ending: RecordedStream.Ending, durationMs: Int?) -> Interaction? {
            guard var interaction = heads.removeValue(forKey: id), case .response(var response) = interaction.outcome else { return nil }
            response.body = RecordedStream(parts.removeValue(forKey: id) ?? [], ending: ending).recordedBody(contentType: response.headers["Content-Type"])
            interaction.outcome = .response(response)
            if let durationMs { interaction.durationMs = durationMs }
            return interaction
        }
    }

    /// The header line of a log extending the file with digest `base`, for `cassette`'s fields.
    static func headerLine(base: String, cassette: Cassette) -> [UInt8] {
        var fields = cassette
        fields.interactions = []
        return line(["format": .string(format), "version": .number(JSONNumber(version)), "base": .string(base), "cassette": fields.jsonValue])
    }

    /// The line recording `interaction`.
    static func interactionLine(_ interaction: Interaction) -> [UInt8] {
        line(["interaction": interaction.jsonValue])
    }

    /// The line beginning stream `id`: `head` is its interaction with an empty stream body.
    static func streamHeadLine(_ id: Int, head: Interaction) -> [UInt8] {
        line(["stream": .number(JSONNumber(id)), "head": head.jsonValue])
    }

    /// The line adding `parts` to stream `id`.
    static func streamPartsLine(_ id: Int, parts: [RecordedStream.Part]) -> [UInt8] {
        line(["stream": .number(JSONNumber(id)), "parts": .array(parts.map(\.jsonValue))])
    }

    /// The line ending stream `id`, which becomes the next logged interaction.
    static func streamEndLine(_ id: Int, ending: RecordedStream.Ending, durationMs: Int?) -> [UInt8] {
        var members: [String: CassetteJSON] = ["stream": .number(JSONNumber(id)), "end": .string(ending.rawValue)]
        members["durationMs"] = durationMs.map { .number(JSONNumber($0)) }
        return line(.sortedObject(members))
    }

    /// The parts of stream `id` that the log at `url` holds between byte `start` and byte `end`, in order;
    /// `nil` when that range cannot be read.
    static func streamParts(_ id: Int, in url: URL, from start: Int, to end: Int) -> [RecordedStream.Part]? {
        let descriptor = Sys.openFile(url.path, O_RDONLY | O_CLOEXEC, 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: max(0, end - start))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in pread(descriptor, raw.baseAddress! + filled, raw.count - filled, off_t(start + filled)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        var parts: [RecordedStream.Part] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let entry = try? CassetteJSON(parsing: Data(line)), case .number(let number)? = entry["stream"], number.intValue == id,
                entry["parts"] != nil
            else { continue }
            guard let reader = try? CassetteFieldReader(entry, file: url.relativePath, interaction: nil, path: "stream \(id)"),
                let stream = try? reader.stream("parts")
            else { return nil }
            parts += stream.parts
        }
        return parts
    }

    /// The line announcing a cassette file of digest `digest` holding the first `count` logged interactions.
    static func checkpointLine(count: Int, digest: String) -> [UInt8] {
        line(["checkpoint": .number(JSONNumber(count)), "digest": .string(digest)])
    }

    private static func line(_ value: CassetteJSON) -> [UInt8] {
        var bytes = JSONWriter.write(value, style: .compact)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// A digest of a cassette file's bytes (`nil`: no file): 64-bit FNV-1a and the length, enough to tell the
    /// file a log was written for from any other version of it.
    static func digest(_ data: Data?) -> String {
        guard let data else { return "none" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { raw in
            for byte in raw {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return "fnv1a64:" + String(hash, radix: 16) + ":\(data.count)"
    }
}
