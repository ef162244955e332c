import BackofficeCore
import Crypto
import Fluent
import Foundation
import SQLKit
import Vapor

/// Every fundraiser query, always scoped to one account: another account's fundraiser, its
/// photo and its snapshots are simply never found. With `FundraiserPhotos` and `JarSnapshots`
/// below, the only place with the SQL of `fundraisers`, `fundraiser_photos`,
/// `fundraiser_share_images` and `jar_snapshots` (SQLKit, the same on SQLite and PostgreSQL).
struct FundraiserStore {
  static let table = "fundraisers"
  static let shareImageTable = "fundraiser_share_images"

  var db: any Database
  var workspaceID: UUID

  struct Slice {
    var items: [FundraiserRecord]
    var total: Int
  }

  /// Newest first.
  func list(page: Int, per: Int) async throws -> Slice {
    let total = try await count()
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return Slice(items: [], total: total) }
    let items = try await Self.records(
      """
      WHERE workspace_id = \(bind: workspaceID) \(unsafeRaw: Self.order)
      LIMIT \(bind: per) OFFSET \(bind: offset)
      """, on: db)
    return Slice(items: items, total: total)
  }

  func all() async throws -> [FundraiserRecord] {
    try await Self.records(
      "WHERE workspace_id = \(bind: workspaceID) \(unsafeRaw: Self.order)", on: db)
  }

  /// Every fundraiser of the account in the order they were made (the backup).
  func allByAge() async throws -> [FundraiserRecord] {
    try await Self.records(
      "WHERE workspace_id = \(bind: workspaceID) ORDER BY created_at, id", on: db)
  }

  func count() async throws -> Int {
    try await DirectQuery.first(
      "SELECT COUNT(*) AS total FROM fundraisers WHERE workspace_id = \(bind: workspaceID)"
        as SQLQueryString, on: db
    )?.decode(column: "total", as: Int.self) ?? 0
  }

  /// The ids of the account's fundraisers.
  func ids() async throws -> [UUID] {
    try await DirectQuery.rows(
      "SELECT id FROM fundraisers WHERE workspace_id = \(bind: workspaceID)" as SQLQueryString,
      on: db
    ).map { try $0.decode(column: "id", as: UUID.self) }
  }

  /// The fundraiser with this id in this account; nil for another account's id, an unknown id
  /// or text that is not an id.
  func find(_ id: String?) async throws -> FundraiserRecord? {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await find(id)
  }

  func find(_ id: UUID) async throws -> FundraiserRecord? {
    try await Self.records(
      "WHERE id = \(bind: id) AND workspace_id = \(bind: workspaceID)", on: db
    ).first
  }

  /// True when `id` is one of the account's fundraisers.
  func exists(_ id: UUID) async throws -> Bool {
    let row = try await DirectQuery.first(
      """
      SELECT COUNT(*) AS total FROM fundraisers
      WHERE id = \(bind: id) AND workspace_id = \(bind: workspaceID)
      """ as SQLQueryString, on: db)
    return try (row?.decode(column: "total", as: Int.self) ?? 0) > 0
  }

  /// The account's fundraisers as id and purpose, newest first (what an expense can be linked
  /// to).
  func choices() async throws -> [(id: UUID, purpose: String)] {
    try await DirectQuery.rows(
      """
      SELECT id, purpose FROM fundraisers WHERE workspace_id = \(bind: workspaceID)
      \(unsafeRaw: Self.order)
      """ as SQLQueryString, on: db
    ).map {
      (
        try $0.decode(column: "id", as: UUID.self),
        try $0.decode(column: "purpose", as: String.self)
      )
    }
  }

  // MARK: the public page (no workspace: found by its address)

  /// The fundraiser whose public page is `slug`, while the page is on.
  static func published(slug: String, on db: any Database) async throws -> FundraiserRecord? {
    try await records(
      "WHERE public_slug = \(bind: slug) AND is_public = \(bind: true) LIMIT 1", on: db
    ).first
  }

  /// The picture of the fundraiser's link previews, if one was kept.
  static func shareImage(of fundraiserID: UUID, on db: any Database) async throws
    -> FundraiserShareImageRecord?
  {
    try await DirectQuery.first(
      """
      SELECT \(unsafeRaw: FundraiserShareImageRecord.columns) FROM fundraiser_share_images
      WHERE fundraiser_id = \(bind: fundraiserID)
      """ as SQLQueryString, on: db
    ).map(FundraiserShareImageRecord.init)
  }

  /// The digest of that picture, without loading it; nil when there is none.
  static func shareImageETag(of fundraiserID: UUID, on db: any Database) async throws -> String? {
    try await DirectQuery.first(
      "SELECT etag FROM fundraiser_share_images WHERE fundraiser_id = \(bind: fundraiserID)"
        as SQLQueryString, on: db
    )?.decode(column: "etag", as: String.self)
  }

  // MARK: the jar refresh (every workspace)

  /// Every fundraiser whose jar is asked: active ones with a jar, oldest first.
  static func asking(on db: any Database) async throws -> [FundraiserRecord] {
    try await records(
      """
      WHERE jar_id IS NOT NULL AND stage = \(bind: FundraiserStage.active.rawValue)
      ORDER BY created_at
      """, on: db)
  }

  /// True while the fundraiser is still active (not closed or deleted meanwhile).
  static func isActive(_ id: UUID, on db: any Database) async throws -> Bool {
    let row = try await DirectQuery.first(
      """
      SELECT COUNT(*) AS total FROM fundraisers
      WHERE id = \(bind: id) AND stage = \(bind: FundraiserStage.active.rawValue)
      """ as SQLQueryString, on: db)
    return try (row?.decode(column: "total", as: Int.self) ?? 0) > 0
  }

  // MARK: writes

  /// A fundraiser's photo as a write brings it: a draft the form kept, or an upload.
  enum NewPhoto {
    case draft(UUID)
    case upload(ValidPhoto, now: Date)
  }

  /// Inserts new rows of one table (a `newRow`), `batch` rows per statement (a restore sends
  /// photos ten at a time: their bytes make a statement large).
  func insert(_ rows: [NewRow], batch: Int = BulkInsert.defaultBatch) async throws {
    try await PreparedInsert(rows).run(on: db, batch: batch)
  }

  /// Stores `campaign` as a new fundraiser with `photo`, in one transaction: the new
  /// fundraiser, with its id, first version and dates.
  func create(_ campaign: Campaign, photo: NewPhoto) async throws -> FundraiserRecord {
    var record = FundraiserRecord(workspaceID: workspaceID, campaign: campaign)
    let now = Date()
    record.createdAt = now
    record.updatedAt = now
    let (row, id, owner) = (record.newRow, record.id, workspaceID)
    try await db.transaction { db in
      try await FundraiserStore(db: db, workspaceID: owner).insert([row])
      try await Self.attach(photo, to: id, workspaceID: owner, on: db)
    }
    // What was written, without reading it back (as it was with the model).
    return record
  }

  /// `record` changed to `campaign` (and `photo`, when one is given), only from version
  /// `expected` (any version when nil): the fundraiser as saved, or nil when it was changed or
  /// deleted since, and then nothing is written.
  func update(
    _ record: FundraiserRecord, to campaign: Campaign, photo: NewPhoto?, expected: Int?
  ) async throws -> FundraiserRecord? {
    var changed = record
    changed.apply(campaign)
    let (id, owner, values) = (record.id, workspaceID, changed)
    let saved = try await RecordVersion.write(
      Self.table, id: id, workspaceID: owner, expected: expected, on: db
    ) { db in
      try await db.sql().raw(
        """
        UPDATE fundraisers SET purpose = \(bind: values.purpose),
          target_kopiykas = \(bind: values.targetKopiykas), jar_id = \(bind: values.jarID),
          template = \(bind: values.template), scale = \(bind: values.scale),
          offset_x = \(bind: values.offsetX), offset_y = \(bind: values.offsetY),
          show_progress = \(bind: values.showProgress), show_qr = \(bind: values.showQR),
          call_to_action = \(bind: values.callToAction), updated_at = \(bind: Date())
        WHERE id = \(bind: id) AND workspace_id = \(bind: owner)
        """
      ).run()
      if let photo { try await Self.attach(photo, to: id, workspaceID: owner, on: db) }
      return try await FundraiserStore(db: db, workspaceID: owner).find(id)
    }
    return saved ?? nil
  }

  /// Moves `record` from its stage to `target` with `change` made to it (the dates and the
  /// public page that go with the move), only from version `expected` (any version when nil)
  /// and while it is still at the stage it was read at: the fundraiser as saved, or nil when
  /// it was changed, moved or deleted since, and then nothing is written.
  func move(
    _ record: FundraiserRecord, to target: FundraiserStage, expected: Int?,
    change: (inout FundraiserRecord) -> Void
  ) async throws -> FundraiserRecord? {
    var changed = record
    changed.stage = target
    change(&changed)
    let (id, owner, values) = (record.id, workspaceID, changed)
    let stillAt = SQLBinaryExpression(
      SQLIdentifier("stage"), .equal, SQLBind(record.stageValue))
    // Only what the move changes, so a value read before it is never written back.
    var sets: SQLQueryString = "stage = \(bind: values.stageValue), updated_at = \(bind: Date())"
    if values.closedAt != record.closedAt { sets += ", closed_at = \(bind: values.closedAt)" }
    if values.reportedAt != record.reportedAt {
      sets += ", reported_at = \(bind: values.reportedAt)"
    }
    if values.publicSlug != record.publicSlug {
      sets += ", public_slug = \(bind: values.publicSlug)"
    }
    if values.isPublic != record.isPublic { sets += ", is_public = \(bind: values.isPublic)" }
    let update = sets
    let saved = try await RecordVersion.write(
      Self.table, id: id, workspaceID: owner, expected: expected, condition: stillAt, on: db
    ) { db in
      try await db.sql().raw(
        "UPDATE fundraisers SET \(update) WHERE id = \(bind: id) AND workspace_id = \(bind: owner)"
      ).run()
      return try await FundraiserStore(db: db, workspaceID: owner).find(id)
    }
    return saved ?? nil
  }

  /// Opens (`isPublic`) or closes the public page; its address is made the first time. The
  /// fundraiser as saved (the page's switch is not an edit: its version stays).
  func setPublic(_ record: FundraiserRecord, _ isPublic: Bool) async throws -> FundraiserRecord {
    var saved = record
    saved.isPublic = isPublic
    saved.updatedAt = Date()
    var sets: SQLQueryString = """
      is_public = \(bind: saved.isPublic), updated_at = \(bind: saved.updatedAt)
      """
    if isPublic, saved.publicSlug == nil {
      // A clash of two random addresses is next to impossible; the unique index refuses one.
      saved.publicSlug = PublicSlug.make()
      sets += ", public_slug = \(bind: saved.publicSlug)"
    }
    try await db.sql().raw(
      """
      UPDATE fundraisers SET \(sets)
      WHERE id = \(bind: saved.id) AND workspace_id = \(bind: workspaceID)
      """
    ).run()
    return saved
  }

  /// Keeps `upload` as the picture of the fundraiser's link previews, replacing any before.
  func saveShareImage(_ upload: ValidPhoto, for fundraiserID: UUID) async throws {
    let now = Date()
    let existing = try await DirectQuery.first(
      "SELECT id FROM fundraiser_share_images WHERE fundraiser_id = \(bind: fundraiserID)"
        as SQLQueryString, on: db
    )?.decode(column: "id", as: UUID.self)
    guard let existing else {
      try await insert([
        FundraiserShareImageRecord(
          id: UUID.random(), fundraiserID: fundraiserID, data: upload.data, etag: upload.etag,
          updatedAt: now
        ).newRow
      ])
      return
    }
    try await db.sql().raw(
      """
      UPDATE fundraiser_share_images SET data = \(bind: upload.data),
        etag = \(bind: upload.etag), updated_at = \(bind: now)
      WHERE id = \(bind: existing)
      """
    ).run()
  }

  private static func attach(
    _ photo: NewPhoto, to fundraiserID: UUID, workspaceID: UUID, on db: any Database
  ) async throws {
    let draft: UUID
    switch photo {
    case .draft(let id): draft = id
    case .upload(let upload, let now):
      draft = try await FundraiserPhotos.saveDraft(
        upload, workspaceID: workspaceID, now: now, on: db)
    }
    try await FundraiserPhotos.attach(draftID: draft, to: fundraiserID, on: db)
  }

  /// Deletes the fundraiser with its photo and jar history, if it still has version
  /// `expected` (any version when nil); false when it was changed or deleted meanwhile. Its
  /// expenses stay, unlinked, each with a new version (their `fundraiser_id` changed).
  static func delete(_ record: FundraiserRecord, expected: Int?, on db: any Database)
    async throws -> Bool
  {
    let (id, owner) = (record.id, record.workspaceID)
    let deleted: Void? = try await RecordVersion.write(
      table, id: id, workspaceID: owner, expected: expected, on: db
    ) { db in
      let sql = try db.sql()
      try await sql.raw("DELETE FROM jar_snapshots WHERE fundraiser_id = \(bind: id)").run()
      try await sql.raw("DELETE FROM fundraiser_photos WHERE fundraiser_id = \(bind: id)").run()
      try await sql.update(ExpenseRecord.table)
        .set("fundraiser_id", to: SQLLiteral.null)
        .set(
          "version",
          to: SQLBinaryExpression(SQLIdentifier("version"), .add, SQLLiteral.numeric("1"))
        )
        .where("fundraiser_id", .equal, id)
        .where("workspace_id", .equal, owner)
        .run()
      try await sql.raw(
        "DELETE FROM fundraisers WHERE id = \(bind: id) AND workspace_id = \(bind: owner)"
      ).run()
    }
    return deleted != nil
  }

  // MARK: building queries

  /// Newest first.
  private static let order = "ORDER BY created_at DESC, id"

  /// The fundraisers `clause` (what follows `FROM fundraisers`) selects.
  private static func records(_ clause: SQLQueryString, on db: any Database) async throws
    -> [FundraiserRecord]
  {
    try await DirectQuery.rows(
      "SELECT \(unsafeRaw: FundraiserRecord.columns) FROM fundraisers \(clause)"
        as SQLQueryString, on: db
    ).map(FundraiserRecord.init)
  }
}

/// Photos, read and written only for a fundraiser already found in the right account, or by
/// photo id within one account.
enum FundraiserPhotos {
  static let table = "fundraiser_photos"

  static func photo(for fundraiserID: UUID, on db: any Database) async throws
    -> FundraiserPhotoRecord?
  {
    try await photos("WHERE fundraiser_id = \(bind: fundraiserID) LIMIT 1", on: db).first
  }

  /// The photo's id and ETag, without loading its bytes.
  static func reference(for fundraiserID: UUID, on db: any Database) async throws
    -> (id: UUID, etag: String)?
  {
    guard
      let row = try await DirectQuery.first(
        "SELECT id, etag FROM fundraiser_photos WHERE fundraiser_id = \(bind: fundraiserID)"
          as SQLQueryString, on: db)
    else { return nil }
    return (
      try row.decode(column: "id", as: UUID.self), try row.decode(column: "etag", as: String.self)
    )
  }

  /// Any photo of the account, draft or attached; nil for another account's photo.
  static func photo(id: String?, workspaceID: UUID, on db: any Database) async throws
    -> FundraiserPhotoRecord?
  {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await photos(
      "WHERE id = \(bind: id) AND workspace_id = \(bind: workspaceID)", on: db
    ).first
  }

  /// The attached photos of the account's fundraisers `ids` (the backup).
  static func photos(of ids: [UUID], workspaceID: UUID, on db: any Database) async throws
    -> [FundraiserPhotoRecord]
  {
    var found: [FundraiserPhotoRecord] = []
    for start in stride(from: 0, to: ids.count, by: 500) {
      let chunk = ids[start..<min(start + 500, ids.count)]
      found += try await photos(
        """
        WHERE workspace_id = \(bind: workspaceID)
          AND fundraiser_id IN (\(SQLList(chunk.map { SQLBind($0) })))
        """, on: db)
    }
    return found
  }

  /// A draft of the account (a photo not attached to any fundraiser yet), by id.
  static func draft(id: String?, workspaceID: UUID, on db: any Database) async throws -> UUID? {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await DirectQuery.first(
      """
      SELECT id FROM fundraiser_photos
      WHERE id = \(bind: id) AND workspace_id = \(bind: workspaceID) AND fundraiser_id IS NULL
      """ as SQLQueryString, on: db
    )?.decode(column: "id", as: UUID.self)
  }

  /// Keeps an upload as a draft until the form passes. Dated `now` (the app's clock), the
  /// clock `pruneDrafts` is asked with.
  static func saveDraft(_ upload: ValidPhoto, workspaceID: UUID, now: Date, on db: any Database)
    async throws -> UUID
  {
    let draft = FundraiserPhotoRecord(
      workspaceID: workspaceID, fundraiserID: nil, data: upload.data, info: upload.info,
      etag: upload.etag, createdAt: now)
    try await PreparedInsert([draft.newRow]).run(on: db)
    return draft.id
  }

  /// Makes the draft the fundraiser's photo, replacing the one it had.
  static func attach(draftID: UUID, to fundraiserID: UUID, on db: any Database) async throws {
    let sql = try db.sql()
    try await sql.raw("DELETE FROM fundraiser_photos WHERE fundraiser_id = \(bind: fundraiserID)")
      .run()
    try await sql.raw(
      "UPDATE fundraiser_photos SET fundraiser_id = \(bind: fundraiserID) WHERE id = \(bind: draftID)"
    ).run()
  }

  /// Drafts nobody came back for.
  static func pruneDrafts(olderThan cutoff: Date, on db: any Database) async throws {
    try await db.sql().raw(
      """
      DELETE FROM fundraiser_photos WHERE fundraiser_id IS NULL AND created_at < \(bind: cutoff)
      """
    ).run()
  }

  /// The photos `clause` (what follows `FROM fundraiser_photos`) selects.
  private static func photos(_ clause: SQLQueryString, on db: any Database) async throws
    -> [FundraiserPhotoRecord]
  {
    try await DirectQuery.rows(
      "SELECT \(unsafeRaw: FundraiserPhotoRecord.columns) FROM fundraiser_photos \(clause)"
        as SQLQueryString, on: db
    ).map(FundraiserPhotoRecord.init)
  }
}

/// An uploaded photo that passed Core's check.
struct ValidPhoto: Sendable {
  var data: Data
  var info: ImageInfo

  var etag: String { hexString(SHA256.hash(data: data)) }

  /// Nil when nothing was uploaded; the reason when the upload is not a usable photo. The photo
  /// is kept without what the camera wrote beside it (`ImageMetadata`): it is drawn into posters
  /// and public pages, and a phone's EXIF names the place it was taken.
  static func check(_ bytes: Data?, maxBytes: Int) -> Result<ValidPhoto, CampaignPhotoError>? {
    guard let bytes, !bytes.isEmpty else { return nil }
    let result = CampaignPhoto.validate([UInt8](bytes), maxBytes: maxBytes)
    guard case .success(let info) = result else {
      return result.map { ValidPhoto(data: bytes, info: $0) }
    }
    let cleaned = ImageMetadata.stripped(bytes)
    if cleaned != bytes, case .success(let same) = CampaignPhoto.validate([UInt8](cleaned)),
      same == info
    {
      return .success(ValidPhoto(data: cleaned, info: same))
    }
    return .success(ValidPhoto(data: bytes, info: info))
  }
}

/// What is known about a fundraiser's jar: the last good answer, and whether the last attempt
/// failed (and why). A failure never hides the good answer before it.
struct JarState: Sendable, Equatable {
  var lastGood: JarSnapshotValue?
  var lastGoodAt: Date?
  var lastAttemptAt: Date?
  /// Set when the most recent attempt failed: why, in the interface language of the moment it
  /// was read (`JarFetchError.describe(stored:)`).
  var lastError: String?

  static let none = JarState()

  /// Progress against the campaign's target, else the jar's goal.
  func progress(target: Decimal?) -> FundraiserProgress? {
    guard let lastGood else { return nil }
    return FundraiserProgress(collected: lastGood.amount, target: target, jarGoal: lastGood.goal)
  }
}

enum JarSnapshots {
  static let table = "jar_snapshots"

  /// The jar state of each fundraiser, for its current jar only, in two queries whatever the
  /// number of fundraisers (no query per card).
  static func states(for records: [FundraiserRecord], on db: any Database) async throws
    -> [UUID: JarState]
  {
    let withJar = records.filter { $0.jarID != nil }
    guard !withJar.isEmpty else { return [:] }
    var states: [UUID: JarState] = [:]
    for chunk in stride(from: 0, to: withJar.count, by: 500).map({
      Array(withJar[$0..<min($0 + 500, withJar.count)])
    }) {
      let ids = chunk.map(\.id)
      let good = try await latest(ids: ids, okOnly: true, on: db)
      let any = try await latest(ids: ids, okOnly: false, on: db)
      for record in chunk {
        guard let jar = record.jarID else { continue }
        let id = record.id
        var state = JarState()
        if let snapshot = good.filter({ $0.fundraiserID == id && $0.jarID == jar })
          .max(by: { $0.takenAt < $1.takenAt })
        {
          state.lastGood = snapshot.value
          state.lastGoodAt = snapshot.takenAt
        }
        if let attempt = any.filter({ $0.fundraiserID == id && $0.jarID == jar })
          .max(by: { $0.takenAt < $1.takenAt })
        {
          state.lastAttemptAt = attempt.takenAt
          state.lastError =
            attempt.ok ? nil : JarFetchError.describe(stored: attempt.error ?? "")
        }
        states[id] = state
      }
    }
    return states
  }

  static func state(for record: FundraiserRecord, on db: any Database) async throws -> JarState {
    try await states(for: [record], on: db)[record.id] ?? .none
  }

  /// The newest snapshot per (fundraiser, jar) among `ids`.
  private static func latest(ids: [UUID], okOnly: Bool, on db: any Database) async throws
    -> [JarSnapshotRecord]
  {
    var query: SQLQueryString = """
      SELECT \(unsafeRaw: JarSnapshotRecord.columns(of: "s")) FROM jar_snapshots s
      WHERE s.fundraiser_id IN (\(binds: ids))
      """
    if okOnly { query += " AND s.ok = \(bind: true)" }
    query += " AND s.taken_at = (SELECT MAX(t.taken_at) FROM jar_snapshots t"
    query += " WHERE t.fundraiser_id = s.fundraiser_id AND t.jar_id = s.jar_id"
    if okOnly { query += " AND t.ok = \(bind: true)" }
    query += ")"
    return try await DirectQuery.rows(query, on: db).map(JarSnapshotRecord.init)
  }

  /// Successful fetches of the fundraiser's current jar since `since`, oldest first.
  static func history(for record: FundraiserRecord, since: Date, on db: any Database)
    async throws -> [JarSnapshotRecord]
  {
    guard let jar = record.jarID else { return [] }
    return try await snapshots(
      """
      WHERE fundraiser_id = \(bind: record.id) AND jar_id = \(bind: jar) AND ok = \(bind: true)
        AND taken_at >= \(bind: since)
      ORDER BY taken_at ASC
      """, on: db)
  }

  /// The latest attempts of the current jar, newest first.
  static func recent(for record: FundraiserRecord, limit: Int, on db: any Database) async throws
    -> [JarSnapshotRecord]
  {
    guard let jar = record.jarID else { return [] }
    return try await snapshots(
      """
      WHERE fundraiser_id = \(bind: record.id) AND jar_id = \(bind: jar)
      ORDER BY taken_at DESC, id LIMIT \(bind: limit)
      """, on: db)
  }

  /// One page of every attempt for the fundraiser (all jars it ever had), newest first.
  static func page(for fundraiserID: UUID, page: Int, per: Int, on db: any Database)
    async throws -> (items: [JarSnapshotRecord], total: Int)
  {
    let total =
      try await DirectQuery.first(
        "SELECT COUNT(*) AS total FROM jar_snapshots WHERE fundraiser_id = \(bind: fundraiserID)"
          as SQLQueryString, on: db
      )?.decode(column: "total", as: Int.self) ?? 0
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return ([], total) }
    let items = try await snapshots(
      """
      WHERE fundraiser_id = \(bind: fundraiserID) ORDER BY taken_at DESC, id
      LIMIT \(bind: per) OFFSET \(bind: offset)
      """, on: db)
    return (items, total)
  }

  /// Every snapshot of the fundraisers `ids`, oldest first (the backup).
  static func all(of ids: [UUID], on db: any Database) async throws -> [JarSnapshotRecord] {
    var found: [JarSnapshotRecord] = []
    for start in stride(from: 0, to: ids.count, by: 500) {
      let chunk = ids[start..<min(start + 500, ids.count)]
      found += try await snapshots(
        "WHERE fundraiser_id IN (\(SQLList(chunk.map { SQLBind($0) }))) ORDER BY taken_at, id",
        on: db)
    }
    return found
  }

  /// Inserts new rows (`JarSnapshotRecord.newRow`), `BulkInsert.defaultBatch` per statement.
  static func insert(_ rows: [NewRow], on db: any Database) async throws {
    try await PreparedInsert(rows).run(on: db)
  }

  /// The snapshots `clause` (what follows `FROM jar_snapshots`) selects.
  private static func snapshots(_ clause: SQLQueryString, on db: any Database) async throws
    -> [JarSnapshotRecord]
  {
    try await DirectQuery.rows(
      "SELECT \(unsafeRaw: JarSnapshotRecord.columns) FROM jar_snapshots \(clause)"
        as SQLQueryString, on: db
    ).map(JarSnapshotRecord.init)
  }
}

/// Fetching a jar and keeping the answer.
enum JarRefresh {
  /// Asks the jar of `record` and stores the outcome as a snapshot, good or not. Nil when the
  /// fundraiser has no jar. A failure is stored as `JarFetchError.storedForm`, a code rather
  /// than words: this runs in the background too, and the words are chosen when a page (in its
  /// reader's language) shows them.
  @discardableResult
  static func refresh(
    _ record: FundraiserRecord, client: JarClient, on db: any Database, now: @Sendable () -> Date
  ) async throws -> JarSnapshotRecord? {
    guard let jar = record.jarID.flatMap(JarID.init(rawValue:)) else { return nil }
    let result = await client.fetch(jar)
    if case .success = result {
      AppMetrics.shared.jarRefreshes.increment()
    } else {
      AppMetrics.shared.jarRefreshFailures.increment()
    }
    let snapshot = JarSnapshotRecord(
      fundraiserID: record.id, jarID: jar, takenAt: now(), result: result)
    try await JarSnapshots.insert([snapshot.newRow], on: db)
    return snapshot
  }
}
