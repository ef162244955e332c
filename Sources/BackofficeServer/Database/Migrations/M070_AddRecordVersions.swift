import Fluent

/// Every editable record gets a version: 1 for the rows there already are, one more on every
/// change, so a save made from an old copy of the record can be recognised and refused.
struct M070_AddRecordVersions: AsyncMigration {
  static let tables = [
    "products", "expenses", "ad_payments", "fundraisers",
    "marketing_plans",
  ]

  func prepare(on database: any Database) async throws {
    for table in Self.tables {
      try await database.schema(table)
        .field(
          FieldKey(stringLiteral: RecordVersion.column), .int, .required,
          .sql(.default(RecordVersion.first))
        )
        .update()
    }
  }

  func revert(on database: any Database) async throws {
    for table in Self.tables {
      try await database.schema(table).deleteField(FieldKey(stringLiteral: RecordVersion.column))
        .update()
    }
  }
}
