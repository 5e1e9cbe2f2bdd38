import Foundation

/// How a `defaultValueString` reads for its attribute's type (docs/core-data.md "What inference accepts").
package enum DefaultValueVerdict: Equatable, Sendable {
    case valid
    /// Clearly a value, but in another type's spelling: why.
    case suspicious(String)
    /// Cannot mean anything for the type, or out of range: why.
    case invalid(String)

    package static func judge(_ attribute: Attribute) -> DefaultValueVerdict {
        if attribute.type == .date, let interval = attribute.defaultDateTimeInterval,
            !(isDecimalSpelling(interval) && Double(interval)?.isFinite == true)
        {
            return .invalid("defaultDateTimeInterval \"\(interval)\" is not a number of seconds")
        }
        guard let value = attribute.defaultValueString else { return .valid }
        let type = attribute.type
        let isYesNo = value == "YES" || value == "NO"
        if let range = type.integerRange {
            if let integer = parseInteger(value) {
                return range.contains(integer)
                    ? .valid
                    : .invalid(
                        "\"\(value)\" is out of range for \(type.xmlValue) (\(range.lowerBound)...\(range.upperBound))")
            }
            if isYesNo {
                return .suspicious(
                    "\"\(value)\" is a Boolean spelling on an \(type.xmlValue) attribute: converted to an integer it reads 0, so the default the editor shows is not the one the app gets"
                )
            }
            if overflowsInteger(value) {
                return .invalid(
                    "\"\(value)\" is out of range for \(type.xmlValue) (\(range.lowerBound)...\(range.upperBound))")
            }
            // Decided from the digits, never through Double: 1e19 would trap an Int64 conversion, and
            // 1e-9223372036854775808 underflows to a whole-looking 0.
            switch ExactDecimal(value) {
            case .whole(let integer)? where range.contains(integer):
                return .suspicious(
                    "\"\(value)\" is a fractional spelling on an \(type.xmlValue) attribute; write \(integer)")
            case .whole?, .outOfInt64?, .fractional?:
                return .invalid("\"\(value)\" is not a whole number in range for \(type.xmlValue)")
            case nil:
                break
            }
            return .invalid("\"\(value)\" is not an integer")
        }
        switch type {
        case .decimal, .double, .float:
            if isDecimalSpelling(value), let number = Double(value) {
                let limit = type == .float ? Double(Float.greatestFiniteMagnitude) : Double.greatestFiniteMagnitude
                if number.isFinite && abs(number) <= limit { return .valid }
                return .invalid("\"\(value)\" is out of range for \(type.xmlValue)")
            }
            if isYesNo { return .suspicious("\"\(value)\" is a Boolean spelling on a \(type.xmlValue) attribute") }
            return .invalid("\"\(value)\" is not a number")
        case .boolean:
            if ["YES", "NO", "0", "1"].contains(value) { return .valid }
            if ["true", "false", "TRUE", "FALSE", "True", "False", "yes", "no", "Yes", "No"].contains(value)
                || parseInteger(value) != nil
            {
                return .suspicious("\"\(value)\" is not how a Boolean default is written (YES, NO, 0 or 1)")
            }
            return .invalid("\"\(value)\" is not a Boolean (YES, NO, 0 or 1)")
        case .date:
            return isDecimalSpelling(value) && Double(value)?.isFinite == true
                ? .valid : .invalid("\"\(value)\" is not a date (a number of seconds since 2001-01-01)")
        case .uuid:
            return UUID(uuidString: value) != nil ? .valid : .invalid("\"\(value)\" is not a UUID")
        default:
            return .valid
        }
    }

    /// A number as Core Data's model reader takes it: optional sign, digits with at most one point, optional
    /// exponent. Swift's `Double(_:)` also reads hex floats (`0x1p3`), `nan` and `infinity`, which a model's
    /// default never means.
    package static func isDecimalSpelling(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            bytes = bytes.dropFirst()
        }
        var digits = 0
        var points = 0
        while let b = bytes.first, (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: ".") {
            if b == UInt8(ascii: ".") { points += 1 } else { digits += 1 }
            bytes = bytes.dropFirst()
        }
        guard digits > 0, points <= 1 else { return false }
        guard let e = bytes.first else { return true }
        guard e == UInt8(ascii: "e") || e == UInt8(ascii: "E") else { return false }
        bytes = bytes.dropFirst()
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        return !bytes.isEmpty && bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// What a decimal spelling (`isDecimalSpelling`) is exactly: a whole number an Int64 holds, a whole number
    /// beyond Int64, or not whole. Nil for anything else.
    package enum ExactDecimal: Equatable {
        case whole(Int64)
        case outOfInt64
        case fractional

        package init?(_ text: String) {
            guard DefaultValueVerdict.isDecimalSpelling(text) else { return nil }
            var s = Substring(text)
            var negative = false
            if s.first == "+" || s.first == "-" {
                negative = s.first == "-"
                s = s.dropFirst()
            }
            var mantissa = s
            var exponentText: Substring = "0"
            if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
                mantissa = s[..<e]
                exponentText = s[s.index(after: e)...]
            }
            let point = mantissa.firstIndex(of: ".")
            let integerPart = point.map { mantissa[..<$0] } ?? mantissa
            let fractionPart = point.map { mantissa[mantissa.index(after: $0)...] } ?? ""
            var digits = Array((integerPart + fractionPart).utf8.map { Int($0) - 48 })
            while digits.first == 0 { digits.removeFirst() }
            if digits.isEmpty {
                self = .whole(0)
                return
            }
            // value = digits × 10^(exponent - fraction digits); trailing zeros move into the power.
            var power = -fractionPart.count
            while digits.last == 0 {
                digits.removeLast()
                power += 1
            }
            var exponentSign = 1
            var e = exponentText
            if e.first == "+" || e.first == "-" {
                exponentSign = e.first == "-" ? -1 : 1
                e = e.dropFirst()
            }
            let exponentDigits = e.drop { $0 == "0" }
            // Beyond 30 digits of exponent, far past any Int64 either way.
            if exponentDigits.count > 30 {
                self = exponentSign < 0 ? .fractional : .outOfInt64
                return
            }
            guard let exponent = Int(exponentDigits.isEmpty ? "0" : String(exponentDigits)) else {
                self = .outOfInt64
                return
            }
            let (shifted, overflow) = power.addingReportingOverflow(exponentSign * exponent)
            if overflow {
                self = exponentSign < 0 ? .fractional : .outOfInt64
                return
            }
            if shifted < 0 {
                self = .fractional
                return
            }
            if shifted > 19 - digits.count {
                self = .outOfInt64
                return
            }
            let text = (negative ? "-" : "") + digits.map(String.init).joined() + String(repeating: "0", count: shifted)
            self = Int64(text).map { .whole($0) } ?? .outOfInt64
        }
    }

    package static func parseInteger(_ text: String) -> Int64? {
        var digits = Substring(text)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int64(text.first == "+" ? String(text.dropFirst()) : text)
    }

    package static func overflowsInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit)
    }
}

/// Core Data's dates: seconds since 2001-01-01 00:00:00 UTC (`NSDate`'s reference date).
package enum CoreDataDate {
    /// `631152000` -> `2021-01-01T00:00:00Z`; nil for what is not a finite number of seconds.
    package static func iso8601(_ seconds: String) -> String? {
        guard DefaultValueVerdict.isDecimalSpelling(seconds), let value = Double(seconds), value.isFinite,
            abs(value) < 1e12
        else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSinceReferenceDate: value))
    }
}

/// A default as the value Core Data makes of it, so that two spellings of one value are one default.
package enum DefaultValue {
    /// Whether two attributes' defaults are the same value for Core Data: the text, or for numbers, Booleans and
    /// dates the number it reads as (`0` and `0.0` on a Double, `NO` and `0` on a Boolean are one default; the
    /// type decides, and a change of type is a change of its own).
    package static func sameValue(_ a: Attribute, _ b: Attribute) -> Bool {
        // An evaluated default (a SwiftData initializer) is the same default when it is written the same.
        guard a.fields.value.defaultExpression == b.fields.value.defaultExpression else { return false }
        if a.defaultValueString == b.defaultValueString && a.defaultDateTimeInterval == b.defaultDateTimeInterval {
            return true
        }
        guard a.type == b.type else { return false }
        func number(_ text: String?) -> Double? {
            guard let text else { return nil }
            switch a.type {
            case .boolean:
                switch text {
                case "YES", "1": return 1
                case "NO", "0": return 0
                default: return nil
                }
            case .integer16, .integer32, .integer64, .decimal, .double, .float:
                // A Boolean spelling on a number reads 0 (suspicious-default-value says so).
                if text == "YES" || text == "NO" { return 0 }
                return DefaultValueVerdict.isDecimalSpelling(text) ? Double(text) : nil
            case .date:
                return DefaultValueVerdict.isDecimalSpelling(text) ? Double(text) : nil
            default:
                return nil
            }
        }
        let x = a.type == .date ? (a.defaultDateTimeInterval ?? a.defaultValueString) : a.defaultValueString
        let y = b.type == .date ? (b.defaultDateTimeInterval ?? b.defaultValueString) : b.defaultValueString
        if x == nil && y == nil { return true }
        guard let m = number(x), let n = number(y) else { return x == y }
        return m == n
    }
}
