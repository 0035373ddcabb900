/** The bootstrap document of RUNTIME.md §3, with worker URLs supplied by the test. */
export function sampleBootstrap(workers: { dev: string[]; prod?: string[] }) {
  return {
    environments: [
      { name: 'dev', workerUrls: workers.dev },
      { name: 'prod', workerUrls: workers.prod ?? [] },
    ],
    users: [
      { username: 'root', password: 's3cret-root', role: 'ADMIN' },
      { username: 'alice', password: 'alice-pass-1', tokenLifetimeSeconds: 3600 },
      { username: 'mallory', password: 'm-pass', locked: true },
      { username: 'dave', password: 'd-pass', enabled: false },
      { username: 'bob', password: 'bob-pass-1' },
      { username: 'carol', password: 'carol-pass-1' },
    ],
    projects: [
      {
        name: 'payments',
        environments: ['dev', 'prod'],
        members: [
          {
            username: 'alice',
            permissions: [
              { category: 'IDENTITY', level: 'MANAGE' },
              { category: 'IDENTITY', level: 'DEPLOY_UNDEPLOY' },
              { category: 'AI_DEVELOPMENT', level: 'MANAGE' },
              { category: 'PROJECT_MANAGEMENT', level: 'EXPORT_IMPORT' },
            ],
          },
          // bob may reset but not deploy; carol may only view
          { username: 'bob', permissions: [{ category: 'IDENTITY', level: 'MANAGE' }] },
          { username: 'carol', permissions: [{ category: 'IDENTITY', level: 'VIEW' }] },
        ],
        organizations: [
          { code: 'acme', name: 'Acme' },
          { code: 'acme-eu', name: 'Acme EU', parentCode: 'acme' },
          { code: 'frozen', name: 'Frozen', suspended: true },
          { code: 'gone', name: 'Gone', state: 'TOMBSTONED' },
        ],
        credentials: [
          { username: 'shop-frontend', password: 'pw-1', fullName: 'Shop Frontend', email: 'shop@example.test', organizationCode: 'acme', enabled: true },
          { username: 'ldap-synced', password: 'pw-2', syncManaged: true },
        ],
        applications: [
          {
            name: 'checkout',
            applicationKind: 'PORTAL',
            organizationCode: 'acme',
            consumers: ['shop-frontend'],
            apiClients: [{ name: 'checkout-web', clientId: 'checkout-web-id', operationalState: 'ACTIVE' }],
          },
        ],
        apiProxies: [{ name: 'orders-api', groups: ['retail'], kind: 'REST' }],
        objects: [
          { type: 'IP_GROUP', name: 'office-ips', content: { ips: ['10.0.0.0/8'] } },
          { type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'edge-ks', content: { alias: 'edge' } },
        ],
      },
      { name: 'other', environments: ['dev'] },
    ],
  }
}
