import { defineRoutes, requireActor } from '../../platform/http/routes.js'
import { plainBody } from '../../platform/http/response-schemas.js'
import { installationLicenseSchema } from './view-schemas.js'
import { getInstallationLicense, licenseInput, resetInstallationLicense, setInstallationLicense } from './service.js'

const PATH = '/api/installation-license'
const refusals = { 401: 'missing, invalid, expired or revoked token', 403: 'permissionDenied: system administrators only' }

/** The installation licence at runtime (docs/limits-bulk.md): read, replace, back to every module licensed. */
export const licenseRoutes = defineRoutes([
  {
    method: 'get', path: PATH, style: 'common', auth: 'token', tag: 'license',
    summary: 'The installation licence: licensed modules, and whether no licence was set (every module licensed)',
    response: plainBody(installationLicenseSchema),
    responses: { 200: 'modules, allModulesLicensed, source (DEFAULT, BOOTSTRAP, API), updatedAt, updatedBy', ...refusals },
    async handle(ctx) {
      return { body: await getInstallationLicense(ctx.deps.prisma, requireActor(ctx)) }
    },
  },
  {
    method: 'put', path: PATH, style: 'common', auth: 'token', tag: 'license',
    summary: 'Replace the licensed modules; a bulk run whose content needs a module no longer licensed ends LICENSE_REVOKED at its next chunk boundary',
    body: { kind: 'json', required: true, schema: licenseInput },
    response: plainBody(installationLicenseSchema),
    responses: { 200: 'the licence', 400: 'malformedRequest (params.field)', ...refusals },
    async handle(ctx, input) {
      return { body: await setInstallationLicense(ctx.deps.prisma, requireActor(ctx), input.body) }
    },
  },
  {
    method: 'delete', path: PATH, style: 'common', auth: 'token', tag: 'license',
    summary: 'Remove the stored licence: every module is licensed again',
    response: plainBody(installationLicenseSchema),
    responses: { 200: 'the licence', ...refusals },
    async handle(ctx) {
      return { body: await resetInstallationLicense(ctx.deps.prisma, requireActor(ctx)) }
    },
  },
])
