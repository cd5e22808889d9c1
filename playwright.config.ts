// Playwright: the dashboard's workflows in Debian's Chromium against a Runway started by the global setup
// (fresh database, production build from RUNWAY_DIST_DIR).
import { defineConfig, devices } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  outputDir: 'test-results',
  use: {
    ...devices['Desktop Chrome'],
    // Set by the global setup; workers start after it and inherit the environment.
    baseURL: process.env.RUNWAY_E2E_BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.RUNWAY_E2E_CHROMIUM ?? '/usr/bin/chromium',
      // We run as root in a container: no sandbox, no GPU, no background traffic.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
