/// The closed set of Core Data attribute types, plus whatever else a hand edit wrote.
package enum AttributeType: Hashable, Sendable {
    case integer16, integer32, integer64, decimal, double, float
    case string, boolean, date, binary, uuid, uri, transformable, composite, undefined, objectID
    /// An `attributeType` value Core Data does not have; kept verbatim for the message.
    case unknown(String)

    package static let known: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean,
        .date, .binary, .uuid, .uri, .transformable, .composite, .undefined, .objectID,
    ]

    package init(xmlValue: String) {
        self = AttributeType.known.first { $0.xmlValue == xmlValue } ?? .unknown(xmlValue)
    }

    /// The spelling the model editor writes, which is also the name users know.
    package var xmlValue: String {
        switch self {
        case .integer16: return "Integer 16"
        case .integer32: return "Integer 32"
        case .integer64: return "Integer 64"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .boolean: return "Boolean"
        case .date: return "Date"
        case .binary: return "Binary"
        case .uuid: return "UUID"
        case .uri: return "URI"
        case .transformable: return "Transformable"
        case .composite: return "Composite"
        case .undefined: return "Undefined"
        case .objectID: return "ObjectID"
        case .unknown(let value): return value
        }
    }

    package var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// Inferred migration converts freely inside this family (docs/core-data.md).
    package var isNumericOrBoolean: Bool {
        isInteger || self == .decimal || self == .double || self == .float || self == .boolean
    }

    /// The inclusive range an integer type can hold.
    package var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }
}

/// What happens to the destination objects when the source object is deleted.
package enum DeleteRule: Hashable, Sendable {
    case nullify, cascade, deny, noAction
    case unknown(String)

    package init(xmlValue: String?) {
        switch xmlValue {
        case nil, "Nullify": self = .nullify
        case "Cascade": self = .cascade
        case "Deny": self = .deny
        case "No Action": self = .noAction
        case let other?: self = .unknown(other)
        }
    }

    package var xmlValue: String {
        switch self {
        case .nullify: return "Nullify"
        case .cascade: return "Cascade"
        case .deny: return "Deny"
        case .noAction: return "No Action"
        case .unknown(let value): return value
        }
    }
}
