import Foundation

/// Where commands write: standard output for results, standard error for `recorder: <sentence>` errors.
/// Injectable so that tests can run commands in-process and read exactly what they printed.
struct Console: Sendable {
    /// Writes text to standard output as is.
    let writeOutput: @Sendable (String) -> Void
    /// Writes text to standard error as is.
    let writeError: @Sendable (String) -> Void

    /// Prints `text` and a newline on standard output.
    func print(_ text: String) {
        writeOutput(text + "\n")
    }

    /// Prints `recorder: SENTENCE` and a newline on standard error.
    func error(_ sentence: String) {
        writeError("recorder: \(sentence)\n")
    }

    /// The process's own standard output and error, unbuffered, so lines appear as they are printed and
    /// the two streams interleave in order.
    static var standard: Console {
        Console(
            writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) })
    }
}

/// `1 interaction`, `2 interactions`: counts in messages read as English. `plural` defaults to `noun` + `s`.
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
