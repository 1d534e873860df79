/// How parameter values that have no single textual form are written for one API: dates, booleans and
/// arrays. Defaults: ISO 8601 dates, `true`/`false`, a repeated name per array element.
public struct ParameterFormatting: Sendable {
    /// How a boolean is written in a query, form or multipart body. JSON bodies always use JSON booleans.
    public enum BooleanStyle: Hashable, Sendable {
        /// `true` / `false`.
        case trueFalse
        /// `1` / `0`.
        case oneZero
    }

    /// How an array is written in a query, form or multipart body. JSON bodies always use JSON arrays.
    public enum ArrayStyle: Hashable, Sendable {
        /// The name once per element: `tag=a&tag=b`.
        case repeatedName
        /// The name with `[]` once per element: `tag[]=a&tag[]=b` (brackets percent-encoded in queries).
        case bracketedName
        /// One value, the elements joined: `.joined(";")` writes `tag=a;b` (the separator percent-encoded
        /// like any other character).
        case joined(String)
    }

    /// How dates are written, in every encoding.
    public var dates: DateFormat
    /// How booleans are written outside JSON bodies.
    public var booleans: BooleanStyle
    /// How arrays are written outside JSON bodies.
    public var arrays: ArrayStyle

    /// A formatting; every argument has the documented default.
    public init(dates: DateFormat = .iso8601, booleans: BooleanStyle = .trueFalse, arrays: ArrayStyle = .repeatedName) {
        self.dates = dates
        self.booleans = booleans
        self.arrays = arrays
    }

    /// ISO 8601 dates, `true`/`false`, repeated names.
    public static let standard = ParameterFormatting()
}
