import Foundation

extension MarketingCatalog {
  /// The catalog a fresh install starts with: the same targets, channels and packages as the
  /// original app's documents, kept in the project so nothing is fetched at first start.
  public static let bundledDefault = MarketingCatalog(
    targets: BundledCatalog.targets, channels: BundledCatalog.channels)
}

private enum BundledCatalog {
  static let facebook = MarketingChannelRef(id: "0af1bfee844a7003cec5", name: "Facebook")
  static let linkedin = MarketingChannelRef(id: "9a464cbf5bf479321862", name: "Linkedin")
  static let twitter = MarketingChannelRef(id: "66a8bfaafccc4b2c2a9a", name: "Twitter")
  static let instagram = MarketingChannelRef(id: "2ebf381815ca49157fd6", name: "Instagram")
  static let googleAdWords = MarketingChannelRef(id: "2499f739821b5ab3dcd6", name: "Google AdWords")
  static let seo = MarketingChannelRef(id: "9789d17ffaf4432dcce0", name: "SEO")

  static let targets: [MarketingTarget] = [
    MarketingTarget(
      name: "Location", channels: [facebook, linkedin, twitter, instagram, googleAdWords]),
    MarketingTarget(
      name: "Age", channels: [facebook, linkedin, twitter, instagram, googleAdWords]),
    MarketingTarget(
      name: "Sex", channels: [facebook, linkedin, twitter, instagram, googleAdWords]),
    MarketingTarget(name: "Spoken languages", channels: [facebook, twitter, instagram]),
    MarketingTarget(name: "Events", channels: [facebook, twitter]),
    MarketingTarget(name: "Company", channels: [linkedin]),
    MarketingTarget(name: "Industry", channels: [linkedin, seo]),
    MarketingTarget(name: "Expertise", channels: [linkedin]),
    MarketingTarget(name: "Education", channels: [linkedin]),
    MarketingTarget(name: "Technology", channels: [twitter]),
    MarketingTarget(name: "Interests", channels: [instagram]),
    MarketingTarget(name: "Device", channels: [googleAdWords]),
    MarketingTarget(name: "Keywords", channels: [googleAdWords, seo]),
    MarketingTarget(name: "Similar products / services", channels: [googleAdWords]),
    MarketingTarget(name: "Hyperlinks", channels: [seo]),
  ]

  // Prices are whole numbers of the currency, written as integer literals so no binary
  // floating point is involved.
  static let channels: [MarketingChannel] = [
    channel(
      facebook, "Facebook",
      [
        fee(
          140, "EUR",
          [
            "3-8 listings", "12 optimizations", "Campaign setup", "Admin and optimising",
            "Email support", "Monthly reports", "Install", "Conversion monitoring", "Landing page",
          ]),
        fee(
          200, "EUR",
          [
            "8-15 listings", "20 optimizations", "Campaign setup", "Admin and optimising",
            "Email support", "Monthly reports", "Install", "Conversion monitoring", "Landing page",
            "Phone support", "Remarketing",
          ]),
        fee(
          100, "EUR",
          [
            "1-3 listings", "8 optimizations", "Campaign setup", "Admin and optimising",
            "Email support", "Monthly reports", "Install", "Conversion monitoring",
          ]),
        fee(
          75, "EUR",
          [
            "1 pagina Facebook", "8 optimizations", "Campaign setup", "Admin and optimising",
            "Email support", "Monthly reports",
          ]),
      ]),
    channel(
      linkedin, "Linkedin",
      [
        fee(
          150, "EUR",
          [
            "5-8 listings", "Campaign setup", "Admin and optimising", "Email support",
            "Monitoring", "Monthly reports",
          ]),
        fee(
          180, "EUR",
          [
            "8-10 listings", "Campaign setup", "Admin and optimising", "Email support",
            "Monitoring", "Monthly reports", "Phone support",
          ]),
        fee(
          90, "EUR",
          [
            "1-3 listings", "Campaign setup", "Admin and optimising", "Email support",
            "Monthly reports",
          ]),
        fee(
          60, "EUR",
          [
            "1-2 listings", "Campaign setup", "Admin and optimising", "Email support",
          ]),
      ]),
    channel(
      twitter, "Twitter",
      [
        fee(
          170, "EUR",
          [
            "10-15 listings", "Campaign setup", "Campaign auctioning", "Targeted tweets",
            "Email support", "Admin and optimising", "Monthly reports",
          ]),
        fee(
          250, "EUR",
          [
            "15-20 listings", "Campaign setup", "Campaign auctioning", "Targeted tweets",
            "Email support", "Admin and optimising", "Monthly reports", "Phone support",
          ]),
        fee(
          120, "EUR",
          [
            "5-10 listings", "Campaign setup", "Campaign auctioning", "Targeted tweets",
            "Email support", "Admin and optimising",
          ]),
        fee(
          80, "EUR",
          [
            "1-5 listings", "Campaign setup", "Campaign auctioning", "Targeted tweets",
            "Email support",
          ]),
      ]),
    channel(
      instagram, "Instagram",
      [
        fee(
          180, "EUR",
          [
            "5-8 listings", "4 optimizations", "Campaign setup", "Campaign testing",
            "Campaign analysis", "Email support",
          ]),
        fee(
          270, "EUR",
          [
            "10-12 listings", "8 optimizations", "Campaign setup", "Campaign testing",
            "Campaign analysis", "Monitoring", "Email support", "Phone support",
          ]),
        fee(
          130, "EUR",
          [
            "1-4 listings", "2 optimizations", "Campaign setup", "Campaign analysis",
            "Email support",
          ]),
        fee(
          80, "EUR",
          [
            "1 listing", "Campaign setup", "Email support",
          ]),
      ]),
    channel(
      googleAdWords, "Google AdWords",
      [
        fee(
          150, "EUR",
          [
            "3 optimizations", "Campaign setup", "Content creation", "Admin and monitoring",
            "Email support",
          ]),
        fee(
          230, "EUR",
          [
            "5 optimizations", "Campaign setup", "Content creation", "Admin and monitoring",
            "Monthly reports", "Email support", "Phone support",
          ]),
        fee(
          90, "EUR",
          [
            "1 optimization", "Campaign setup", "Content creation", "Email support",
          ]),
      ]),
    channel(
      seo, "SEO",
      [
        fee(
          270, "EUR",
          [
            "Scope setup", "Market research", "Keyword research", "Content analysis",
            "Hyperlinks analysis", "Local SEO", "Website optimization", "Backling setup",
            "Campaign analysis", "Email support",
          ]),
        fee(
          320, "EUR",
          [
            "Scope setup", "Market research", "Keyword research", "Content analysis",
            "Hyperlinks analysis", "Local SEO", "Audit SEO", "Website optimization",
            "Backling setup", "Campaign analysis", "Email support",
          ]),
        fee(
          180, "EUR",
          [
            "Scope setup", "Market research", "Keyword research", "Content analysis",
            "Hyperlinks analysis", "Local SEO", "Backling setup", "Email support",
          ]),
        fee(
          110, "EUR",
          [
            "Scope setup", "Market research", "Keyword research", "Content analysis", "Local SEO",
            "Email support",
          ]),
      ]),
  ]

  private static func channel(
    _ reference: MarketingChannelRef, _ name: String, _ fees: [ChannelDocument.MonthlyFee]
  ) -> MarketingChannel {
    MarketingChannel(id: reference.id, document: ChannelDocument(channel: name, monthlyFees: fees))
  }

  private static func fee(_ price: Decimal, _ currency: String, _ details: [String])
    -> ChannelDocument.MonthlyFee
  {
    ChannelDocument.MonthlyFee(price: price, details: details, currency: currency)
  }
}
