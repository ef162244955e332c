import BackofficeCore
import Foundation
import Vapor

/// The import form of one area and its upload: the one handler behind every CSV import
/// (expenses, ad payments, products). It reads the form's fields, checks the whole file before
/// anything is written, says why nothing was imported in the same words in every area, and
/// starts the background import. What a row is and how its cells are read is the area's
/// business (`read`, `json`); so is the form's page (`form`).
struct CSVImportUpload<Row: Sendable, Form: PageView>: Sendable {
  var area: ImportArea
  /// The area's reading of a file: its valid rows and one line per row that is not.
  var read: @Sendable (Data) -> CSVImport.Checked<Row>
  /// The JSON the area's import job keeps for the valid rows.
  var json: @Sendable ([Row]) throws -> String
  /// The area's import page, empty or showing why the last upload imported nothing.
  var form: @Sendable (CSVImport.Refusal?, CSVImport.Choices) -> Form

  @Sendable func page(req: Request) async throws -> Response {
    req.page(form(nil, CSVImport.Choices()))
  }

  /// Reads and checks the whole file first: any problem is listed and nothing is written
  /// (unless "Skip rows with errors" is ticked). The valid rows are then imported in the
  /// background, in batches, and the browser goes to the import's progress page. A refused
  /// upload gets the form again, as it was sent, with status 422.
  @Sendable func receive(req: Request) async throws -> Response {
    let jobs = try req.application.importJobs
    // Parsing a form of several megabytes takes a while too (a second for 150 000 rows in a
    // debug build): on the imports' own thread, so this event loop's other requests (another
    // workspace's writes among them) do not wait behind it.
    let input = try await jobs.compute { try req.content.decode(CSVImport.Fields.self) }
    let choices = CSVImport.Choices(
      skipErrors: [input.skipErrors, input.skipInvalid].contains { !($0 ?? "").isEmpty },
      importDuplicates: !(input.importDuplicates ?? "").isEmpty)
    func refuse(_ message: String, rows: [String] = []) -> Response {
      req.page(
        form(CSVImport.Refusal(message: message, rows: rows), choices),
        status: .unprocessableEntity)
    }
    guard let file = input.file, file.data.readableBytes > 0 else {
      return refuse(CSVImport.Message.noFile)
    }
    let data = Data(buffer: file.data)
    // Reading 150 000 rows takes seconds of CPU: on the imports' own thread.
    let rows: [Row]
    let problems: [String]
    switch try await jobs.compute({ read(data) }) {
    case .unreadable(let message): return refuse(message)
    case .rows(let valid, let invalid): (rows, problems) = (valid, invalid)
    }
    if !problems.isEmpty && !choices.skipErrors {
      return refuse(CSVImport.Message.rowsHaveErrors(problems.count), rows: problems)
    }
    guard !rows.isEmpty else { return refuse(CSVImport.Message.noValidRow, rows: problems) }
    let stored = try await jobs.compute { try json(rows) }
    return try await ImportsController.begin(
      req, area: area, rows: stored, total: rows.count, keepDuplicates: choices.importDuplicates,
      problems: problems)
  }
}

/// What every CSV import form shares: its fields, its ticks, its messages.
enum CSVImport {
  /// What an import form sends.
  struct Fields: Content {
    var file: File?
    var skipErrors: String?
    /// The name the ad payments form once gave `skip_errors`; still read, for pages open
    /// from before.
    var skipInvalid: String?
    var importDuplicates: String?

    enum CodingKeys: String, CodingKey {
      case file
      case skipErrors = "skip_errors"
      case skipInvalid = "skip_invalid"
      case importDuplicates = "import_duplicates"
    }
  }

  /// The two ticks of the form, so a refused upload shows them as they were sent.
  struct Choices: Sendable, Equatable {
    /// "Skip rows with errors" (`skip_errors`).
    var skipErrors = false
    /// "Import rows that are already present" (`import_duplicates`).
    var importDuplicates = false
  }

  /// Why nothing was imported: a sentence, and one line per row with errors ("Row 3: …").
  struct Refusal: Sendable, Equatable {
    var message: String
    var rows: [String] = []
  }

  /// An uploaded file as its area read it.
  enum Checked<Row: Sendable>: Sendable {
    /// The file could not be read at all; the sentence says why.
    case unreadable(String)
    /// The valid rows, and one line per row that is not, counting the header as row 1.
    case rows([Row], problems: [String])
  }

  enum Message {
    static var noFile: String { L("imports.no_file") }
    static var noValidRow: String { L("imports.no_valid_row") }

    static func rowsHaveErrors(_ count: Int) -> String {
      L("imports.rows_have_errors", count: count, ["option": skipErrors])
    }

    /// The label of the "Skip rows with errors" tick, which the message above names.
    static var skipErrors: String { L("imports.form.skip_errors") }

    /// The label of the "Import rows that are already present" tick.
    static var importDuplicates: String { L("imports.form.import_duplicates") }
  }
}
