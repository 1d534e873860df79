import Foundation
import ServiceReplayShared

/// The one decision behind recording, `recorder redact` and `recorder lint`: is this value a secret, and by
/// which rule. Every redaction asks it, and `lint` reports what redaction would replace, so the two never
/// disagree.
///
/// In order, the first that applies decides:
/// 1. a JSON path or a name given on purpose (`redact` in a rules file, `--redact-field`, ``adding(headers:fields:)``)
///    makes the value a secret;
/// 2. a name, JSON path or whole value in the rules file's `allow` makes it none;
/// 3. under an identifier's or a cursor's name (``IdentifierNames``) only a precise credential format does;
/// 4. a built-in secret name does (headers and fields, with their widenings under the default rules);
/// 5. so does the value's own format (``CredentialFormat``) under the default rules: anywhere when precise (a JWT,
///    a known key prefix), and a high-entropy string only as the value of a request header. A guess never
///    decides anywhere else: a response is replayed as recorded (an image or embedding in base64, a random
///    ID), and a request's query and body are matched, where a placeholder would match anything.
extension RedactionRules {
    /// The rule that makes any value under `name` a secret, or `nil`. `header` says whether the name is a
    /// header's (only header names widen by ``secretHeaderParts``; field names by ``secretFieldEndings``, and
    /// match any redacted header's name exactly).
    func rule(forName name: String, header: Bool) -> SecretRule? {
        let field = Self.normalisedField(name)
        let named = headers.contains(Self.normalisedHeader(name)) || (!header && fields.contains(field))
        if named, let source = sources[field] { return SecretRule(.name(name, source, urlParameter: false), allowEntry: nil) }
        guard !allowedNames.contains(field), !IdentifierNames.contains(name) else { return nil }
        let builtIn = SecretRule(.name(name, .builtIn, urlParameter: false), allowEntry: name)
        if named { return builtIn }
        guard widens else { return nil }
        if header {
            let normalised = Self.normalisedHeader(name)
            return Self.secretHeaderParts.contains { normalised.contains($0) } ? builtIn : nil
        }
        let squashed = IdentifierNames.squashed(name)
        return Self.secretFieldEndings.contains { squashed.hasSuffix($0) } ? builtIn : nil
    }

    /// The verdict on `value`, found under `name` (a header's when `header`, else a field's or JSON key's;
    /// `nil` for an array element or a document that is a string) at `path` (JSON only); `nil` when it is no
    /// secret. An empty value, `null` and the placeholder are never secrets: there is nothing to hide.
    /// `guessing` lets a high-entropy string count (a request header's value).
    func verdict(on value: String, name: String?, header: Bool = false, path: JSONPath? = nil, guessing: Bool = false) -> SecretRule? {
        verdict(on: value, name: name, byName: name.flatMap { rule(forName: $0, header: header) }, path: path, guessing: guessing)
    }

    /// ``verdict(on:name:header:path:)`` with the rule for the name already known (`byName`, from
    /// ``rule(forName:header:)``), for a walk that meets the same names again and again.
    func verdict(on value: String, name: String?, byName: SecretRule?, path: JSONPath?, guessing: Bool = false) -> SecretRule? {
        guard !value.isEmpty, !value.contains(Self.placeholder) else { return nil }
        if let path, let listed = listedPath(path) { return SecretRule(.path(listed), allowEntry: nil) }
        if let byName, byName.isGivenOnPurpose { return byName }
        if isAllowed(value: value, name: name, path: path) { return nil }
        return byName ?? formatRule(of: value, name: name, path: path, guessing: guessing)
    }

    /// The verdict on a member that is no string (a number, an object, an array) under `name` at `path`: by the
    /// name or path alone. Booleans and `null` are never secrets.
    func verdict(onMember value: CassetteJSON, name: String, path: JSONPath) -> SecretRule? {
        verdict(onMember: value, name: name, byName: rule(forName: name, header: false), path: path)
    }

    /// ``verdict(onMember:name:path:)`` with the rule for the name already known (see
    /// ``verdict(on:name:byName:path:)``).
    func verdict(onMember value: CassetteJSON, name: String, byName: SecretRule?, path: JSONPath) -> SecretRule? {
        switch value {
        case .null, .bool: return nil
        case .string(let text): return verdict(on: text, name: name, byName: byName, path: path)
        default: break
        }
        if let listed = listedPath(path) { return SecretRule(.path(listed), allowEntry: nil) }
        guard let byName else { return nil }
        return byName.isGivenOnPurpose || !isAllowed(value: nil, name: name, path: path) ? byName : nil
    }

    /// The verdict on the value of a URL's query parameter `name` written in other text (a `Location`, a JSON
    /// string, a text body): by the name alone, as a query parameter would be.
    func verdict(onURLParameter name: String) -> SecretRule? {
        guard let rule = rule(forName: name, header: false), case .name(let written, let source, _) = rule.kind else { return nil }
        return SecretRule(.name(written, source, urlParameter: true), allowEntry: rule.allowEntry)
    }

    /// The rule for a word of free text: a precise format only, unless the value is allowed.
    func verdict(onWord word: String) -> SecretRule? {
        guard !isAllowed(value: word, name: nil, path: nil) else { return nil }
        return formatRule(of: word, name: nil, path: nil, guessing: false)
    }

    /// The format rule for `value`, or `nil`: only under the default rules; a high-entropy string only when
    /// `guessing`, and never under an identifier's name.
    private func formatRule(of value: String, name: String?, path: JSONPath?, guessing: Bool) -> SecretRule? {
        guard widens, let format = CredentialFormat.of(value) else { return nil }
        if !format.isPrecise, !guessing || name.map(IdentifierNames.contains) == true { return nil }
        return SecretRule(.format(format), allowEntry: name ?? path?.description)
    }

    /// Whether the rules file allows `value`, the name or the path.
    func isAllowed(value: String?, name: String?, path: JSONPath?) -> Bool {
        if let value, !allowedValues.isEmpty, allowedValues.contains(value) { return true }
        if let name, !allowedNames.isEmpty, allowedNames.contains(Self.normalisedField(name)) { return true }
        guard let path, !allowedPaths.isEmpty else { return false }
        return Self.spellings(of: path).contains { allowedPaths.contains($0) }
    }

    /// The rules file's `redact` path that names `path`, or `nil`.
    private func listedPath(_ path: JSONPath) -> String? {
        guard !paths.isEmpty else { return nil }
        return Self.spellings(of: path).first { paths.contains($0) }
    }

    /// `path` as written, and with every index as `[*]`: the spellings a rules file may name it by.
    private static func spellings(of path: JSONPath) -> [String] {
        let any = JSONPath(
            components: path.components.map { component in
                if case .index = component { .anyIndex } else { component }
            })
        return [path.description, any.description]
    }
}
