import Foundation

/// How a `defaultValueString` reads for its attribute's type (rules.md "Defaults").
public enum DefaultValueVerdict: Equatable, Sendable {
    case valid
    /// Clearly a value, but in another type's spelling: why.
    case suspicious(String)
    /// Cannot mean anything for the type, or out of range: why.
    case invalid(String)

    public static func judge(_ attribute: Attribute) -> DefaultValueVerdict {
        if attribute.type == .date, let interval = attribute.defaultDateTimeInterval, Double(interval) == nil {
            return .invalid("defaultDateTimeInterval \"\(interval)\" is not a number of seconds")
        }
        guard let value = attribute.defaultValueString else { return .valid }
        let type = attribute.type
        let isYesNo = value == "YES" || value == "NO"
        if let range = type.integerRange {
            if let integer = parseInteger(value) {
                return range.contains(integer) ? .valid
                    : .invalid("\"\(value)\" is out of range for \(type.xmlValue) (\(range.lowerBound)...\(range.upperBound))")
            }
            if isYesNo {
                return .suspicious("\"\(value)\" is a Boolean spelling on an \(type.xmlValue) attribute: converted to an integer it reads 0, so the default the editor shows is not the one the app gets")
            }
            if let number = Double(value), number.isFinite {
                if number != number.rounded() || !range.contains(Int64(exactly: number.rounded()) ?? Int64.max) {
                    return .invalid("\"\(value)\" is not a whole number in range for \(type.xmlValue)")
                }
                return .suspicious("\"\(value)\" is a fractional spelling on an \(type.xmlValue) attribute; write \(Int64(number))")
            }
            if overflowsInteger(value) {
                return .invalid("\"\(value)\" is out of range for \(type.xmlValue) (\(range.lowerBound)...\(range.upperBound))")
            }
            return .invalid("\"\(value)\" is not an integer")
        }
        switch type {
        case .decimal, .double, .float:
            if Double(value) != nil, !value.lowercased().contains("nan"), !value.lowercased().contains("inf") { return .valid }
            if isYesNo { return .suspicious("\"\(value)\" is a Boolean spelling on a \(type.xmlValue) attribute") }
            return .invalid("\"\(value)\" is not a number")
        case .boolean:
            if ["YES", "NO", "0", "1"].contains(value) { return .valid }
            if ["true", "false", "TRUE", "FALSE", "True", "False", "yes", "no", "Yes", "No"].contains(value) || parseInteger(value) != nil {
                return .suspicious("\"\(value)\" is not how a Boolean default is written (YES, NO, 0 or 1)")
            }
            return .invalid("\"\(value)\" is not a Boolean (YES, NO, 0 or 1)")
        case .date:
            return Double(value) != nil ? .valid : .invalid("\"\(value)\" is not a date (a number of seconds since 2001-01-01)")
        case .uuid:
            return UUID(uuidString: value) != nil ? .valid : .invalid("\"\(value)\" is not a UUID")
        default:
            return .valid
        }
    }

    static func parseInteger(_ text: String) -> Int64? {
        var digits = Substring(text)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int64(text.first == "+" ? String(text.dropFirst()) : text)
    }

    static func overflowsInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit)
    }
}
