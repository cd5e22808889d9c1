// The demo data behind `RUNWAY_DEMO=true`. Idempotent: running it twice changes nothing.
export async function seedDemo(): Promise<void> {
  const { seedPlatformDemo } = await import('./platform');
  await seedPlatformDemo();
}
