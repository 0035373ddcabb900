import { z } from 'zod'
import { legacyBody, legacyListBody, negotiatedBody } from '../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteResult } from '../../platform/http/routes.js'
import { csvLine, wantsCsv } from './csv.js'
import {
  accessReportBatches, accessReportPage, apiReportBatches, apiReportPage, checkReportProject, parseReportQuery, requireReportReader,
  type AccessReportEntry, type ApiReportEntry,
} from './service.js'
import { accessReportResultSchema, apiReportEntrySchema, reportPageFields } from './view-schemas.js'

// Vendor pages 02-api-reference/14-reports, legacy envelope (spec §7.1). System administrators and analyzers only.
// Without page/size the whole report is streamed batch by batch (JSON, or CSV with `Accept: text/csv`); with them
// one page is answered with its totalCount.

const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const DENIED = 'not a system administrator or analyzer; unknown or invalid query parameter (named); unknown projectName'
const paging = {
  projectName: z.string().optional().describe('only this project'),
  page: z.string().optional().describe('0-based page; with page or size one page is answered instead of the stream'),
  size: z.string().optional().describe('objects per page, 1 to 200 (default 20)'),
}
const ACCEPT_HEADER = [{ name: 'Accept', description: 'text/csv for CSV (one row per object, or per access row); JSON otherwise' }]

/** JSON text of a stream: the head, the items of every batch separated by commas, then the tail. */
async function* jsonStream<T>(head: string, batches: AsyncGenerator<T[]>, tail: (count: number) => string) {
  let count = 0
  yield head
  for await (const batch of batches) {
    if (!batch.length) continue
    yield (count ? ',' : '') + batch.map((item) => JSON.stringify(item)).join(',')
    count += batch.length
  }
  yield tail(count)
}

async function* csvStream<T>(header: string[], batches: AsyncGenerator<T[]>, lines: (item: T) => unknown[][]) {
  yield csvLine(header)
  for await (const batch of batches) yield batch.flatMap((item) => lines(item).map(csvLine)).join('')
}

const csvHeaders = (file: string) => ({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${file}"` })
const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' }

/** Starts the generator so that a failure of the first batch is still answered with an error envelope. */
const streamed = (headers: Record<string, string>, stream: AsyncIterable<string>): RouteResult => ({ headers, stream })

const API_CSV = ['objectType', 'projectName', 'name', 'type', 'description', 'relativePath', 'groupsOrApiProxies', 'endpointCount', 'policyCount', 'deploymentState', 'deployedEnvironments', 'redeployRequiredEnvironments']
const apiCsvRow = (e: ApiReportEntry, withEndpoints: boolean) => [
  e.objectType, e.projectName, e.name, e.type, e.description, e.relativePath, e.groups ?? e.apiProxies ?? [], e.endpointCount, e.policyCount, e.deploymentState,
  e.environments.filter((x) => x.deployed).map((x) => x.environmentName), e.environments.filter((x) => x.redeployRequired).map((x) => x.environmentName),
  ...(withEndpoints ? [(e.endpoints ?? []).map((x) => x.name)] : []),
]

const ACCESS_CSV = ['projectName', 'apiProxyName', 'sharingType', 'organizationCode', 'organizationName', 'applicationName', 'credentialUsername', 'environmentName', 'source', 'via']
const accessCsvRows = (e: AccessReportEntry) =>
  (e.accessList.length ? e.accessList : [null]).map((a) => [e.projectName, e.apiProxyName, e.sharingType, a?.organizationCode, a?.organizationName, a?.applicationName, a?.credentialUsername, a?.environmentName, a?.source, a?.via])

export const reportRoutes = defineRoutes([
  {
    method: 'get',
    path: '/apiops/reports/api-proxies',
    style: 'legacy',
    auth: 'token',
    tag: 'reports',
    summary: 'Every API proxy and API proxy group of the installation with groups/members, endpoint and policy counts, environments and deployment state (system administrator or analyzer); streamed, or one page; CSV with Accept: text/csv',
    query: z.object({ includeEndpoints: z.string().optional().describe('true adds each proxy\'s endpoints'), ...paging }),
    headers: ACCEPT_HEADER,
    response: negotiatedBody(legacyListBody(apiReportEntrySchema, reportPageFields), 'text/csv'),
    responses: { 200: 'status SUCCESS, success true, resultList, resultCount (with page/size also page, size, totalCount); or CSV', 400: DENIED, ...COMMON },
    async handle(ctx, input) {
      requireReportReader(requireActor(ctx))
      const q = parseReportQuery(input.query, ['includeEndpoints', 'projectName', 'page', 'size'])
      const db = ctx.deps.prisma
      await checkReportProject(db, q)
      const csv = wantsCsv(input.headers.accept)
      if (q.page) {
        const { items, total } = await apiReportPage(db, { ...q, page: q.page })
        if (csv) return { headers: csvHeaders('api-proxies.csv'), body: Buffer.from(csvLine([...API_CSV, ...(q.includeEndpoints ? ['endpoints'] : [])]) + items.map((e) => csvLine(apiCsvRow(e, q.includeEndpoints))).join('')) }
        return { body: { status: 'SUCCESS', success: true, resultList: items, resultCount: items.length, page: q.page.page, size: q.page.size, totalCount: total } }
      }
      if (csv) return streamed(csvHeaders('api-proxies.csv'), csvStream([...API_CSV, ...(q.includeEndpoints ? ['endpoints'] : [])], apiReportBatches(db, q), (e) => [apiCsvRow(e, q.includeEndpoints)]))
      return streamed(jsonHeaders, jsonStream('{"status":"SUCCESS","success":true,"resultList":[', apiReportBatches(db, q), (n) => `],"resultCount":${n}}`))
    },
  },
  {
    method: 'get',
    path: '/apiops/reports/organization-api-data-model-access',
    style: 'legacy',
    auth: 'token',
    tag: 'reports',
    summary: 'Which organization, application and credential can reach which API proxy, from entitlements (proxy, proxy per environment, group) and RLCLs (system administrator or analyzer); streamed, or one page; CSV with Accept: text/csv',
    query: z.object(paging),
    headers: ACCEPT_HEADER,
    response: negotiatedBody(legacyBody({ result: accessReportResultSchema, ...reportPageFields }), 'text/csv'),
    responses: { 200: 'status SUCCESS, success true, result { apiProxyList [apiProxyName, projectName, sharingType, accessList], dataModelList [] } (with page/size also page, size, totalCount); or CSV', 400: DENIED, ...COMMON },
    async handle(ctx, input) {
      requireReportReader(requireActor(ctx))
      const q = parseReportQuery(input.query, ['projectName', 'page', 'size'])
      const db = ctx.deps.prisma
      await checkReportProject(db, q)
      const csv = wantsCsv(input.headers.accept)
      if (q.page) {
        const { items, total } = await accessReportPage(db, { ...q, page: q.page })
        if (csv) return { headers: csvHeaders('organization-access.csv'), body: Buffer.from(csvLine(ACCESS_CSV) + items.flatMap(accessCsvRows).map(csvLine).join('')) }
        return { body: { status: 'SUCCESS', success: true, result: { apiProxyList: items, dataModelList: [] }, page: q.page.page, size: q.page.size, totalCount: total } }
      }
      if (csv) return streamed(csvHeaders('organization-access.csv'), csvStream(ACCESS_CSV, accessReportBatches(db, q), accessCsvRows))
      return streamed(jsonHeaders, jsonStream('{"status":"SUCCESS","success":true,"result":{"apiProxyList":[', accessReportBatches(db, q), () => '],"dataModelList":[]}}'))
    },
  },
])
