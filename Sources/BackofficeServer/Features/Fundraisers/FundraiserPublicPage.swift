import BackofficeCore
import Crypto
import Fluent
import Foundation
import NIOConcurrencyHelpers
import Vapor

/// A fundraiser's page for everyone, at `/f/<slug>`: no sign-in, nothing of the account but
/// the poster, the purpose, the progress and the jar. The owner switches it on and off on the
/// fundraiser's page; the address stays the same across switching. The page is in the visitor's
/// language (their `Accept-Language`); the poster itself stays Ukrainian, for Ukrainian donors.
struct FundraiserPublicPage: RouteCollection {
  /// The jar is asked at most this often for public pages, however many people look.
  static let refreshInterval: TimeInterval = 60
  /// Requests one address may make to public pages per minute before getting 429.
  static let requestsPerMinute = 120

  static func path(_ slug: String) -> String { Routes.publicFundraiser.href(["slug": slug]) }

  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.publicFundraiser, use: page)
    routes.on(Routes.publicFundraiserPoster, use: poster)
    routes.on(Routes.publicFundraiserImage, use: image)
    routes.on(Routes.publicFundraiserQR, use: qr)
    routes.on(Routes.publicFundraiserReceipt, use: receipt)
  }

  /// The fundraiser behind `:slug` while its page is on; 404 otherwise, the same for a page
  /// switched off and one that never existed. Each address is held to its request budget.
  func published(_ req: Request) async throws -> FundraiserRecord {
    guard req.application.publicPageLimiter.allow(req.clientLimitKey, now: req.now)
    else {
      throw Abort(.tooManyRequests, headers: ["Retry-After": "60"])
    }
    guard let slug = req.parameters.get("slug"), PublicSlug.isValid(slug),
      let record = try await FundraiserStore.published(slug: slug, on: req.db)
    else { throw Abort(.notFound) }
    return record
  }

  @Sendable func page(req: Request) async throws -> Response {
    let record = try await published(req)
    let state = try await Self.freshState(record, req: req)
    let campaign = record.campaign
    let slug = record.publicSlug ?? ""
    // Absolute only from BACKOFFICE_PUBLIC_URL, never from `Host` (the page is kept by shared
    // caches); without it there is no og:url (previewers use the address they fetched) and the
    // picture is named by its path.
    let origin = req.configuredPublicURL
    let hasImage = try await Self.imageETag(of: record, on: req.db) != nil
    let imagePath = Routes.publicFundraiserImage.href(["slug": slug])
    let progress = state.progress(target: campaign.target)
    let description = Self.description(campaign, progress: progress)
    let title = String(campaign.purpose.prefix(90))

    var head: [HTMLNode] = [
      H.meta([.charset("utf-8")]),
      H.meta([.name("viewport"), .content("width=device-width, initial-scale=1")]),
      H.title([], [H.text(title)]),
      H.meta([.name("description"), .content(description)]),
      H.meta([.property("og:type"), .content("website")]),
      H.meta([.property("og:title"), .content(title)]),
      H.meta([.property("og:description"), .content(description)]),
    ]
    if let origin {
      head.append(H.meta([.property("og:url"), .content(origin + Self.path(slug))]))
    }
    head += [
      H.meta([.name("twitter:title"), .content(title)]),
      H.meta([.name("twitter:description"), .content(description)]),
      H.link([.rel("stylesheet"), .href("/css/app.css")]),
      H.link([.rel("icon"), .href("/favicon.svg"), .type("image/svg+xml")]),
    ]
    let imageURL = (origin ?? "") + imagePath
    // Link previews need a raster picture: the PNG the owner's browser drew. Without one yet,
    // no image is named (an SVG would be ignored or shown broken by most previewers).
    if hasImage {
      head += [
        H.meta([.property("og:image"), .content(imageURL)]),
        H.meta([.property("og:image:type"), .content("image/png")]),
        H.meta([.property("og:image:alt"), .content(title)]),
        H.meta([.name("twitter:card"), .content("summary_large_image")]),
        H.meta([.name("twitter:image"), .content(imageURL)]),
      ]
    } else {
      head.append(H.meta([.name("twitter:card"), .content("summary")]))
    }

    var main: [HTMLNode] = [
      H.img([
        .class("fp-poster"), .src(Routes.publicFundraiserPoster.href(["slug": slug])),
        .alt(L("fundraisers.poster_alt", ["purpose": title])), .width("1080"), .height("1080"),
      ]),
      H.h1([.class("fp-purpose")], [H.text(campaign.purpose)]),
    ]
    let stage = record.stage
    if stage != .active {
      main.append(H.p([.class("fr-badge fr-stage-done")], L("fundraisers.public.finished")))
    }
    if let progress { main.append(FundraiserFigures.progressBar(progress)) }
    // The money behind the percentage, as the poster beside it shows it.
    main += FundraiserFigures.amounts(
      FundraiserSummary(record, id: record.id, state: state))
    if let taken = state.lastGoodAt {
      main.append(
        H.p(
          [.class("hint")], [FundraiserFormat.withTime(L("fundraisers.public.data_as_of"), taken)]))
    }
    if stage == .reported {
      let report = try await FundraiserReport.load(
        fundraiser: record, workspaceID: record.workspaceID, state: state, on: req.db
      ).forPublic
      main.append(Self.reportSection(report, slug: slug))
    }
    // Once closed, the fundraiser no longer asks for money.
    if let jar = campaign.jar, stage == .active {
      main += [
        H.p(
          [.class("fp-actions")],
          [
            H.a(
              jar.link, [.class("button button-primary fp-donate"), .rel("noopener")],
              text: L("fundraisers.public.donate", ["call_to_action": Self.callToAction(campaign)]))
          ]),
        H.img([
          .class("fp-qr"), .src(Routes.publicFundraiserQR.href(["slug": slug])),
          .alt(L("fundraisers.public.qr_alt", ["link": jar.link])), .width("240"), .height("240"),
        ]),
        H.p([.class("hint")], L("fundraisers.public.qr_hint")),
      ]
    }

    let html =
      "<!DOCTYPE html>"
      + H.html(
        [.lang(UILanguage.current.rawValue)],
        [
          H.head([], head),
          H.body(
            [.class("fp")],
            [H.main([.id("main"), .class("container fp-main")], main)]),
        ]
      ).render()
    // Caches may keep the page but ask each time, so switching it off takes effect at once.
    let etag = "\"" + hexString(SHA256.hash(data: Data(html.utf8)).prefix(16)) + "\""
    if FundraiserPosters.notModified(req, etag: etag) {
      let response = FundraiserPosters.notModifiedResponse(etag: etag, shared: true)
      response.headers.replaceOrAdd(name: .vary, value: "Accept-Language")
      return response
    }
    let response = Response(status: .ok, body: .init(string: html))
    response.headers.contentType = .html
    response.headers.replaceOrAdd(name: .eTag, value: etag)
    // The words follow the visitor's language, so a shared cache keeps one copy per language.
    response.headers.replaceOrAdd(name: .vary, value: "Accept-Language")
    response.headers.replaceOrAdd(
      name: .cacheControl, value: FundraiserPosters.cacheControl(shared: true))
    return response
  }

  /// The report for donors: the money and each purchase, with only the receipts the volunteer
  /// made public (`report` is already `forPublic`).
  static func reportSection(_ report: FundraiserReport, slug: String) -> HTMLNode {
    H.section(
      [.class("fp-report"), .aria(.labelledby, "fp-report-title")],
      [
        H.h2(L("fundraisers.report.public_title"), [.id("fp-report-title")]),
        FundraiserReportView.money(report),
        report.purchases.isEmpty
          ? H.p([.class("muted")], L("fundraisers.report.public_no_purchases"))
          : H.empty,
        FundraiserReportView.purchases(report) { purchase, receipt in
          Routes.publicFundraiserReceipt.href([
            "slug": slug, "receiptID": receipt.id.uuidString.lowercased(),
          ])
        },
      ])
  }

  /// A receipt on the public report: only while the page is on and the report published, and
  /// only a public receipt of a live expense of this fundraiser. Every other case is the same
  /// 404, so nobody can tell a hidden receipt from one that does not exist.
  @Sendable func receipt(req: Request) async throws -> Response {
    let record = try await published(req)
    guard record.stage == .reported,
      let receipt = try await FundraiserReport.publicReceipt(
        id: req.parameters.get("receiptID"), of: record, on: req.db),
      // Only pictures are served, whatever a stored type says.
      ["image/jpeg", "image/png"].contains(receipt.mime)
    else { throw Abort(.notFound) }
    return FundraiserPosters.imageResponse(
      receipt.data, type: receipt.mime, etag: receipt.etag, req: req, shared: true)
  }

  /// The poster in the fundraiser's template, square, with the progress the page shows.
  @Sendable func poster(req: Request) async throws -> Response {
    try await FundraiserPosters.posterResponse(
      published(req), req: req, download: false, shared: true)
  }

  /// The PNG for link previews; 404 until the owner's browser has sent one. The digest is read
  /// first, so a preview bot's revalidation never loads the picture.
  @Sendable func image(req: Request) async throws -> Response {
    let record = try await published(req)
    guard let digest = try await Self.imageETag(of: record, on: req.db) else {
      throw Abort(.notFound)
    }
    let quoted = "\"\(digest.prefix(32))\""
    if FundraiserPosters.notModified(req, etag: quoted) {
      return FundraiserPosters.notModifiedResponse(etag: quoted, shared: true)
    }
    guard
      let image = try await FundraiserStore.shareImage(of: record.id, on: req.db)
    else { throw Abort(.notFound) }
    return FundraiserPosters.imageResponse(
      image.data, type: "image/png", etag: image.etag, req: req, shared: true)
  }

  /// The jar's QR code on its own, black on white with the quiet zone.
  @Sendable func qr(req: Request) async throws -> Response {
    let record = try await published(req)
    guard let jar = record.campaign.jar, let code = try? QRCode(jar.link) else {
      throw Abort(.notFound)
    }
    let etag = "\"qr-" + hexString(SHA256.hash(data: Data(jar.link.utf8)).prefix(12)) + "\""
    if FundraiserPosters.notModified(req, etag: etag) {
      return FundraiserPosters.notModifiedResponse(etag: etag, shared: true, svg: true)
    }
    let side = code.svgSide(moduleSize: 8)
    let svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(side)\" height=\"\(side)\""
      + " viewBox=\"0 0 \(side) \(side)\">" + code.svgGroup(moduleSize: 8) + "</svg>\n"
    return FundraiserPosters.svgResponse(svg, etag: etag, shared: true)
  }

  /// The digest of the preview PNG, without loading the picture; nil when there is none.
  static func imageETag(of record: FundraiserRecord, on db: any Database) async throws -> String? {
    try await FundraiserStore.shareImageETag(of: record.id, on: db)
  }

  /// The fundraiser's jar state, asking the jar first when nobody has for a minute. One
  /// database lease per fundraiser makes that once a minute across every app instance.
  static func freshState(_ record: FundraiserRecord, req: Request) async throws -> JarState {
    let state = try await JarSnapshots.state(for: record, on: req.db)
    // A closed or reported fundraiser's jar is never asked again: its last reading stands.
    guard record.stage.asksJar, record.jarID != nil else { return state }
    let id = record.id
    let now = req.now
    if let last = state.lastAttemptAt, now.timeIntervalSince(last) < refreshInterval {
      return state
    }
    let app = req.application
    guard
      try await JobLease.acquire(
        "public-jar:\(id.uuidString.lowercased())", holder: UUID.random().uuidString,
        for: refreshInterval, now: now, on: req.db)
    else { return state }
    try await JarRefresh.refresh(record, client: app.jarClient, on: req.db, now: app.clients.now)
    return try await JarSnapshots.state(for: record, on: req.db)
  }

  /// "Зібрано 7 500 грн. з 15 000 грн. (50%). …" ("7 500 UAH of 15 000 UAH collected (50%).
  /// …") or the goal alone, for link previews.
  static func description(_ campaign: Campaign, progress: FundraiserProgress?) -> String {
    if let progress {
      return L(
        "fundraisers.public.description_progress",
        [
          "collected": FundraiserFormat.amount(progress.collected),
          "goal": FundraiserFormat.amount(progress.goal), "percent": String(progress.percent),
        ])
    }
    if let goal = campaign.target {
      return L(
        "fundraisers.public.description_goal", ["goal": FundraiserFormat.amount(goal)])
    }
    return L("fundraisers.public.description")
  }

  /// The call to action on the donate button: the volunteer's own words, else the default in
  /// the visitor's language (the poster keeps its Ukrainian default).
  static func callToAction(_ campaign: Campaign) -> String {
    campaign.callToAction.isEmpty
      ? L("fundraisers.public.default_call_to_action") : campaign.callToAction
  }
}

/// The random part of a public address: 10 letters and digits, lower case, unguessable enough
/// that pages cannot be found by counting (36^10 ≈ 3.7 × 10^15).
enum PublicSlug {
  static let length = 10
  private static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")

  static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    return String(
      (0..<length).map { _ in
        alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))]
      })
  }

  static func isValid(_ text: String) -> Bool {
    text.count == length && text.allSatisfy { alphabet.contains($0) }
  }
}

/// Requests per address per minute for the public pages, in memory (each instance counts its
/// own), in fixed one-minute windows; old windows are dropped as they pass.
final class PublicPageLimiter: Sendable {
  private let counts = NIOLockedValueBox<(window: Int, byAddress: [String: Int])>((0, [:]))
  let limit: Int

  init(limit: Int) { self.limit = limit }

  func allow(_ address: String, now: Date) -> Bool {
    let window = Int(now.timeIntervalSince1970 / 60)
    return counts.withLockedValue { state in
      if state.window != window { state = (window, [:]) }
      let count = (state.byAddress[address] ?? 0) + 1
      state.byAddress[address] = count
      return count <= limit
    }
  }
}

extension Application {
  private struct PublicPageLimiterKey: StorageKey {
    typealias Value = PublicPageLimiter
  }

  /// Set up with the routes (`routes(_:)`), one per application.
  var publicPageLimiter: PublicPageLimiter {
    get {
      guard let limiter = storage[PublicPageLimiterKey.self] else {
        fatalError("publicPageLimiter is set when the routes are registered")
      }
      return limiter
    }
    set { storage[PublicPageLimiterKey.self] = newValue }
  }
}
