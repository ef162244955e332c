import Fluent
import Vapor

extension Application {
  /// Every migration in order. A new change gets the next number; old ones never change.
  func registerMigrations() {
    migrations.add(M001_CreateUsers())
    migrations.add(SessionRecord.migration)
    migrations.add(M002_CreateAPITokens())
    migrations.add(M003_CreateLoginAttempts())
    migrations.add(M010_CreateAdPayments())
    migrations.add(M020_CreateExpenses())
    migrations.add(M030_CreateMarketingCatalog())
    migrations.add(M031_SeedMarketingCatalog())
    migrations.add(M032_CreateMarketingPlans())
    migrations.add(M040_CreateProducts())
    migrations.add(M041_CreateIdempotencyKeys())
    migrations.add(M042_AddProductCount())
    migrations.add(M043_ProductListIndexes())
    migrations.add(M050_CreateFundraisers())
    migrations.add(M051_CreateJobLeases())
    migrations.add(M060_BrowserSessionsAndAdmins())
    migrations.add(M070_AddRecordVersions())
    migrations.add(M080_AddExpenseMatchKeys())
    migrations.add(M081_AddAdPaymentMatchKeys())
    migrations.add(M082_CreateImportJobs())
    migrations.add(M083_CreateAdministratorClaim())
    migrations.add(M084_CreateChangeVersions())
    migrations.add(M085_IndexIdempotencyKeyAges())
    migrations.add(M086_AddFundraiserSharing())
    migrations.add(M087_IndexExpenseDays())
    migrations.add(M088_AddUserLanguage())
    migrations.add(M089_AddCatalogRefreshLanguage())
    migrations.add(M090_CreateProductChanges())
    migrations.add(M091_AddProductMatchKeys())
    migrations.add(M092_CreateWorkspaces())
    migrations.add(M093_WorkspaceIDsOfTheirOwn())
    migrations.add(M094_CreateMailTables())
    migrations.add(M095_AddFundraiserReports())
    migrations.add(M096_IndexExpenseTotals())
    migrations.add(M097_CountProductTypes())
  }
}
