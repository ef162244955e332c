import BackofficeCore
import Crypto
import Foundation
import Vapor

/// Serving posters and photos.
enum FundraiserPosters {
  /// Posters are SVG documents that style themselves: the embedded `@font-face` needs inline
  /// styles, the font and the photo are `data:` URLs. Nothing else is allowed, not even scripts,
  /// so an SVG opened on its own is as harmless as a picture.
  static let contentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:"

  static let svgContentType = HTTPMediaType(
    type: "image", subType: "svg+xml",
    parameters: [
      "charset": "utf-8"
    ])

  /// Reads `?format=`; anything else is the square post.
  static func format(_ req: Request) -> PosterFormat {
    req.queryValue("format").flatMap(PosterFormat.init(rawValue:)) ?? .post
  }

  /// Reads `?template=` (1–15); nil when absent or not a template.
  static func template(_ req: Request) -> PosterTemplate? {
    req.queryValue("template").flatMap(Int.init).flatMap(PosterTemplate.init(number:))
  }

  /// What a stored fundraiser's poster shows, photo given by `photoHref`.
  static func input(
    _ record: FundraiserRecord, photoHref: String?, state: JarState
  ) -> PosterInput {
    let campaign = record.campaign
    return PosterInput(
      campaign: campaign, photoHref: photoHref, progress: state.progress(target: campaign.target))
  }

  /// A strong validator of everything a poster is drawn from, computed without the photo bytes,
  /// so an unchanged poster costs one small query and no rendering.
  static func etag(
    _ record: FundraiserRecord, photoETag: String?, state: JarState, template: PosterTemplate,
    format: PosterFormat, variant: String
  ) -> String {
    let campaign = record.campaign
    let progress = campaign.showProgress ? state.progress(target: campaign.target) : nil
    let parts: [String] = [
      "poster-v2", variant, String(template.number), format.rawValue, campaign.purpose,
      campaign.target.map { "\($0)" } ?? "-", String(campaign.imagePlacement.scale),
      String(campaign.imagePlacement.offsetX), String(campaign.imagePlacement.offsetY),
      photoETag ?? "-", progress.map { "\($0.collected)/\($0.fraction)" } ?? "-",
      campaign.posterShare?.cacheKey ?? "-",
    ]
    let digest = SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8))
    return "\"" + hexString(digest.prefix(16)) + "\""
  }

  /// True when the browser already has this version.
  static func notModified(_ req: Request, etag: String) -> Bool {
    guard let header = req.headers.first(name: .ifNoneMatch) else { return false }
    return header.split(separator: ",").contains {
      let tag = $0.trimmingCharacters(in: .whitespaces)
      return tag == etag || tag == "W/" + etag || tag == "*"
    }
  }

  /// How a validated response may be kept: by the owner's browser only, or also by shared
  /// caches for public pages. Both ask before each use, so a change (or a page switched off)
  /// shows at once.
  static func cacheControl(shared: Bool) -> String {
    shared ? "public, no-cache" : "private, no-cache"
  }

  /// A 304 of an SVG (`svg`) carries the poster policy too: a browser keeps the cached copy
  /// with the headers of the 304, so the page-wide policy there would block the poster's inline
  /// styles when a poster shown in a page is then opened on its own. A page's 304 keeps the
  /// page-wide policy, which its stylesheet needs.
  static func notModifiedResponse(etag: String, shared: Bool = false, svg: Bool = false)
    -> Response
  {
    let response = Response(status: .notModified)
    if svg {
      response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
    }
    response.headers.replaceOrAdd(name: .eTag, value: etag)
    response.headers.replaceOrAdd(name: .cacheControl, value: cacheControl(shared: shared))
    return response
  }

  /// An SVG response with the poster policy; `filename` makes it a download.
  static func svgResponse(
    _ svg: String, etag: String?, filename: String? = nil, shared: Bool = false
  ) -> Response {
    let response = Response(status: .ok, body: .init(string: svg))
    response.headers.contentType = svgContentType
    response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
    if let etag {
      response.headers.replaceOrAdd(name: .eTag, value: etag)
      response.headers.replaceOrAdd(name: .cacheControl, value: cacheControl(shared: shared))
    } else {
      response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    }
    if let filename {
      response.headers.replaceOrAdd(
        name: .contentDisposition, value: "attachment; filename=\"\(filename)\"")
    }
    return response
  }

  /// The full poster of a stored fundraiser: photo and font embedded, ready for `<img>`, a
  /// canvas or a file. Answers 304 when the browser's copy is current. The owner picks the
  /// template and format in the query; the public page (`shared`) shows the chosen template,
  /// square.
  static func posterResponse(
    _ record: FundraiserRecord, req: Request, download: Bool, shared: Bool = false
  ) async throws -> Response {
    let id = record.id
    let template = (shared ? nil : Self.template(req)) ?? record.campaign.template
    let format = shared ? .post : Self.format(req)
    let state = try await JarSnapshots.state(for: record, on: req.db)
    let photoETag = try await FundraiserPhotos.reference(for: id, on: req.db)?.etag
    let etag = Self.etag(
      record, photoETag: photoETag, state: state, template: template, format: format,
      variant: "full")
    if !download, notModified(req, etag: etag) {
      return notModifiedResponse(etag: etag, shared: shared, svg: true)
    }
    let photo = try await FundraiserPhotos.photo(for: id, on: req.db)
    let svg = PosterRenderer.render(
      input(record, photoHref: photo?.dataURI, state: state), template: template, format: format)
    return svgResponse(
      svg, etag: etag,
      filename: download ? Self.filename(template: template, format: format, "svg") : nil,
      shared: shared)
  }

  /// "zbir-07-story.png": template and format, ASCII so every system keeps the name.
  static func filename(template: PosterTemplate, format: PosterFormat, _ ext: String) -> String {
    let number = template.number < 10 ? "0\(template.number)" : "\(template.number)"
    return "zbir-\(number)-\(format.rawValue).\(ext)"
  }

  /// The photo bytes, with an ETag so browsers keep them.
  static func photoResponse(_ photo: FundraiserPhotoRecord, req: Request) -> Response {
    imageResponse(photo.data, type: photo.mime, etag: photo.etag, req: req)
  }

  /// Image bytes under a validator made from their digest (`digest`, hex); 304 when the
  /// browser's copy is current.
  static func imageResponse(
    _ data: Data, type: String, etag digest: String, req: Request, shared: Bool = false
  ) -> Response {
    let quoted = "\"\(digest.prefix(32))\""
    if notModified(req, etag: quoted) { return notModifiedResponse(etag: quoted, shared: shared) }
    let response = Response(status: .ok, body: .init(data: data))
    response.headers.replaceOrAdd(name: .contentType, value: type)
    response.headers.replaceOrAdd(name: .eTag, value: quoted)
    response.headers.replaceOrAdd(name: .cacheControl, value: cacheControl(shared: shared))
    return response
  }
}
