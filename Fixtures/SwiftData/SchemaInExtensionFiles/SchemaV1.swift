import SwiftData
enum SchemaV1: VersionedSchema {}
