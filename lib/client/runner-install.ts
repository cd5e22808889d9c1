// What the register page tells an administrator to run, per platform: how to install GitLab Runner and how
// to register it with this server's URL and the new runner's token (GitLab's runner registration page and
// its install instructions; the commands follow docs.gitlab.com/runner/install).

export const PLATFORMS = [
  { id: 'linux', label: 'Linux' },
  { id: 'osx', label: 'macOS' },
  { id: 'windows', label: 'Windows' },
  { id: 'docker', label: 'Docker' },
  { id: 'kubernetes', label: 'Kubernetes' },
] as const;
export type Platform = (typeof PLATFORMS)[number]['id'];

export const RUNNER_DOCS = {
  install: 'https://docs.gitlab.com/runner/install/',
  executors: 'https://docs.gitlab.com/runner/executors/',
  docker: 'https://docs.gitlab.com/runner/install/docker/',
  kubernetes: 'https://docs.gitlab.com/runner/install/kubernetes/',
} as const;

const DOWNLOADS = 'https://gitlab-runner-downloads.s3.amazonaws.com/latest/binaries';

export interface InstallStep {
  /** What the commands do, as the step's heading. */
  title: string;
  /** Shell lines; the copy button copies them all. */
  commands: string;
  docs: string;
}

/** How to install the runner on the platform (nothing depends on the token). */
export function installStep(platform: Platform): InstallStep {
  switch (platform) {
    case 'linux':
      return {
        title: 'Download and install the binary (amd64; for arm64 use gitlab-runner-linux-arm64)',
        commands: [
          `sudo curl -L --output /usr/local/bin/gitlab-runner ${DOWNLOADS}/gitlab-runner-linux-amd64`,
          'sudo chmod +x /usr/local/bin/gitlab-runner',
          "sudo useradd --comment 'GitLab Runner' --create-home gitlab-runner --shell /bin/bash",
          'sudo gitlab-runner install --user=gitlab-runner --working-directory=/home/gitlab-runner',
          'sudo gitlab-runner start',
        ].join('\n'),
        docs: RUNNER_DOCS.install,
      };
    case 'osx':
      return {
        title: 'Download and install the binary (Apple silicon; for Intel use gitlab-runner-darwin-amd64)',
        commands: [
          `sudo curl --output /usr/local/bin/gitlab-runner ${DOWNLOADS}/gitlab-runner-darwin-arm64`,
          'sudo chmod +x /usr/local/bin/gitlab-runner',
          'cd ~ && gitlab-runner install && gitlab-runner start',
        ].join('\n'),
        docs: RUNNER_DOCS.install,
      };
    case 'windows':
      return {
        title: 'Download and install the binary (PowerShell as administrator)',
        commands: [
          "New-Item -Path 'C:\\GitLab-Runner' -ItemType Directory",
          "cd 'C:\\GitLab-Runner'",
          `Invoke-WebRequest -Uri "${DOWNLOADS}/gitlab-runner-windows-amd64.exe" -OutFile "gitlab-runner.exe"`,
          '.\\gitlab-runner.exe install',
          '.\\gitlab-runner.exe start',
        ].join('\n'),
        docs: RUNNER_DOCS.install,
      };
    case 'docker':
      return {
        title: 'Start the runner container (its configuration lives in /srv/gitlab-runner/config)',
        commands: [
          'docker run -d --name gitlab-runner --restart always \\',
          '  -v /srv/gitlab-runner/config:/etc/gitlab-runner \\',
          '  -v /var/run/docker.sock:/var/run/docker.sock \\',
          '  gitlab/gitlab-runner:latest',
        ].join('\n'),
        docs: RUNNER_DOCS.docker,
      };
    case 'kubernetes':
      return {
        title: "Add GitLab's Helm repository",
        commands: ['helm repo add gitlab https://charts.gitlab.io', 'helm repo update gitlab'].join('\n'),
        docs: RUNNER_DOCS.kubernetes,
      };
  }
}

/** The command that registers the runner with `url` and its authentication token. */
export function registerCommand(platform: Platform, url: string, token: string): string {
  switch (platform) {
    case 'windows':
      return `.\\gitlab-runner.exe register --url ${url} --token ${token}`;
    case 'docker':
      return `docker run --rm -it -v /srv/gitlab-runner/config:/etc/gitlab-runner gitlab/gitlab-runner register --url ${url} --token ${token}`;
    case 'kubernetes':
      // The chart registers the runner itself from these values.
      return `helm install --namespace gitlab-runner --create-namespace gitlab-runner gitlab/gitlab-runner --set gitlabUrl=${url} --set runnerToken=${token}`;
    default:
      return `gitlab-runner register --url ${url} --token ${token}`;
  }
}

/** Step 3 (optional): run the runner in the foreground to see it pick up jobs; none for containers. */
export function runCommand(platform: Platform): string | null {
  if (platform === 'windows') return '.\\gitlab-runner.exe run';
  if (platform === 'linux' || platform === 'osx') return 'gitlab-runner run';
  return null;
}
