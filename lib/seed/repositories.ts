// Demo repositories: written by the repositories work.
export async function seedRepositoriesDemo(): Promise<void> {}
