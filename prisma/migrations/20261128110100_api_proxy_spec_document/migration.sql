-- The specification an API proxy was built from (issue 32 §2, GET and PUT …/apiProxies/{apiProxyName}/spec/): the
-- OpenAPI/Swagger text read from specFile or specUrl, kept as imported; null for reverse proxies and proxies built
-- before this column.
ALTER TABLE "ApiProxy" ADD COLUMN "specDocument" TEXT;
