import { z } from 'zod'
import { bool, enumOf, host, int, need, nonNegative, optional, optionalText, port, positive, present, required, secret, text, url, withDefault } from './common.js'

// Vendor pages connection-kafka, connection-rabbitmq, connection-activemq.

export const KAFKA_VALUE_TYPES = ['STRING', 'BOOLEAN', 'INTEGER', 'LONG', 'DOUBLE', 'FLOAT', 'STRING_LIST', 'URI'] as const
export const SSL_PROTOCOL_TYPES = ['TLS_1_3', 'TLS_1_2', 'TLS_1_1', 'TLS_1_0', 'SSL_3_0'] as const
const STRING_SERIALIZER = 'org.apache.kafka.common.serialization.StringSerializer'

const mapValue = z.object({ value: text(10_000), valueType: withDefault(enumOf(KAFKA_VALUE_TYPES), 'STRING') })

function checkValueType(ctx: z.RefinementCtx, key: string, v: { value: string; valueType: string }) {
  const bad = (what: string) => need(ctx, `propertiesMap.${key}.value`, `must be ${what} (valueType ${v.valueType})`)
  if (v.valueType === 'BOOLEAN' && !/^(true|false)$/i.test(v.value)) bad('true or false')
  if ((v.valueType === 'INTEGER' || v.valueType === 'LONG') && !/^-?\d+$/.test(v.value)) bad('an integer')
  if ((v.valueType === 'DOUBLE' || v.valueType === 'FLOAT') && !Number.isFinite(Number(v.value))) bad('a number')
  if (v.valueType === 'URI' && !URL.canParse(v.value)) bad('a URI')
}

/**
 * Kafka. `propertiesMap` must hold `bootstrap.servers` (host:port[,host:port…]); the two serializers default
 * to the StringSerializer when absent. The create-connection page's shorthand `bootstrapServers` is accepted
 * and fills `bootstrap.servers`. With enableSecure, protocolTypes and keyStoreName are required.
 */
export const kafkaFields = z
  .object({
    topicName: required(249),
    bootstrapServers: optionalText(2000),
    propertiesMap: withDefault(z.record(z.string(), mapValue), {}),
    enableSecure: bool(false),
    protocolTypes: withDefault(z.array(enumOf(SSL_PROTOCOL_TYPES)), []),
    keyStoreName: optionalText(200),
    trustStoreName: optionalText(200),
  })
  .transform(({ bootstrapServers, ...v }) => {
    const map = { ...v.propertiesMap }
    if (bootstrapServers && !map['bootstrap.servers']) map['bootstrap.servers'] = { value: bootstrapServers, valueType: 'STRING' }
    for (const k of ['key.serializer', 'value.serializer']) map[k] ??= { value: STRING_SERIALIZER, valueType: 'STRING' }
    return { ...v, propertiesMap: map }
  })
  .superRefine((v, ctx) => {
    const servers = v.propertiesMap['bootstrap.servers']?.value
    if (!servers?.trim()) need(ctx, 'propertiesMap.bootstrap.servers', 'is required (host:port, comma-separated for several brokers)')
    else if (!servers.split(',').every((s) => /^[A-Za-z0-9_.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$/.test(s.trim()))) {
      need(ctx, 'propertiesMap.bootstrap.servers', 'must be host:port, comma-separated for several brokers')
    }
    for (const [key, value] of Object.entries(v.propertiesMap)) checkValueType(ctx, key, value)
    if (v.enableSecure && !v.protocolTypes.length) need(ctx, 'protocolTypes', 'must hold at least one protocol when enableSecure is true')
    if (v.enableSecure && !v.keyStoreName) need(ctx, 'keyStoreName', 'is required when enableSecure is true')
  })

const hostPort = z.object({ host: host(), port: withDefault(port(), 5672) })

/** RabbitMQ: at least one host; with authenticationEnabled the user name and password are required. */
export const rabbitMqFields = z
  .object({
    hostPortList: z.array(hostPort, { error: 'must be a list of {host, port}' }).min(1, 'must hold at least one host'),
    connectionFactoryVirtualHost: withDefault(text(255), '/'),
    authenticationEnabled: bool(false),
    connectionFactoryUsername: optionalText(255),
    connectionFactoryPassword: secret(),
    connectionFactoryConnectionTimeout: withDefault(nonNegative(), 60_000),
    connectionFactoryClientProperties: optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))),
    connectionFactoryRequestedChannelMax: withDefault(int().min(0, 'must be between 0 and 65535').max(65535, 'must be between 0 and 65535'), 2047),
    connectionFactoryRequestedFrameMax: withDefault(nonNegative(), 0),
    connectionFactoryRequestedHeartbeat: withDefault(nonNegative(), 60),
    connectionFactoryUseSslProtocol: bool(false),
    connectionFactorySslProtocol: withDefault(enumOf(['TLSv1.3', 'TLSv1.2', 'TLSv1.1', 'TLSv1', 'TLS', 'SSL']), 'TLSv1.2'),
    channelExchange: withDefault(text(255), ''),
    channelRoutingKey: withDefault(text(255), '<queue-name>'),
    basicPropertiesAppId: withDefault(text(255), 'apinizer'),
    basicPropertiesContentType: withDefault(text(255), 'application/json'),
    basicPropertiesContentEncoding: optionalText(255),
    basicPropertiesDeliveryMode: optional(int().refine((n) => n === 1 || n === 2, 'must be 1 (non-persistent) or 2 (persistent)')),
    basicPropertiesPriority: optional(int().min(0, 'must be between 0 and 255').max(255, 'must be between 0 and 255')),
    basicPropertiesReplyTo: optionalText(255),
    basicPropertiesExpiration: optional(text(20).regex(/^\d+$/, 'must be milliseconds as a string of digits')),
    basicPropertiesType: optionalText(255),
    basicPropertiesUserId: optionalText(255),
    basicPropertiesClusterId: optionalText(255),
  })
  .superRefine((v, ctx) => {
    if (v.authenticationEnabled && !v.connectionFactoryUsername) need(ctx, 'connectionFactoryUsername', 'is required when authenticationEnabled is true')
    if (v.authenticationEnabled && !present(v.connectionFactoryPassword)) need(ctx, 'connectionFactoryPassword', 'is required when authenticationEnabled is true')
  })

export const ACTIVEMQ_PROTOCOLS = ['TCP', 'AMQP'] as const
export const DESTINATION_TYPES = ['QUEUE', 'TOPIC'] as const
export const ACKNOWLEDGEMENTS = ['AUTO_ACKNOWLEDGE', 'CLIENT_ACKNOWLEDGE', 'DUPS_OK_ACKNOWLEDGE', 'SESSION_TRANSACTED'] as const
const BROKER_SCHEMES: Record<(typeof ACTIVEMQ_PROTOCOLS)[number], string[]> = { TCP: ['tcp', 'ssl', 'nio', 'nio+ssl', 'failover'], AMQP: ['amqp', 'amqps', 'amqp+ssl'] }

/** ActiveMQ: the brokerURL's scheme must fit activeMqConnectionProtocolType (tcp://… for TCP, amqp://… for AMQP). */
export const activeMqFields = z
  .object({
    activeMqConnectionProtocolType: enumOf(ACTIVEMQ_PROTOCOLS),
    brokerURL: url([...BROKER_SCHEMES.TCP, ...BROKER_SCHEMES.AMQP], 'a broker URL such as tcp://host:61616 or amqp://host:5672'),
    username: optionalText(255),
    password: secret(),
    destinationType: enumOf(DESTINATION_TYPES),
    destinationName: required(255),
    sessionAcknowledgement: withDefault(enumOf(ACKNOWLEDGEMENTS), 'AUTO_ACKNOWLEDGE'),
    sendTimeout: withDefault(nonNegative(), 60_000),
    requestTimeout: withDefault(nonNegative(), 60_000),
    closeTimeout: withDefault(nonNegative(), 60_000),
    connectTimeout: withDefault(positive(), 60_000),
    contentType: optionalText(255),
    clientID: optionalText(255),
    contentEncoding: optionalText(100),
  })
  .superRefine((v, ctx) => {
    const scheme = new URL(v.brokerURL).protocol.replace(/:$/, '')
    if (!BROKER_SCHEMES[v.activeMqConnectionProtocolType].includes(scheme)) {
      need(ctx, 'brokerURL', `scheme '${scheme}' does not fit activeMqConnectionProtocolType ${v.activeMqConnectionProtocolType} (use ${BROKER_SCHEMES[v.activeMqConnectionProtocolType].join(', ')})`)
    }
  })
