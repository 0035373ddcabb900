// Request bodies of the vendor pages 02-api-reference/06-connections (crud/ and connections/), as printed.

const common = (type: string, name: string, description: string) => ({ type, name, description, deployToWorker: true, enabled: true })

export const CRUD_EMAIL = {
  ...common('email', 'my-email-connection', 'Email connection for sending notifications'),
  host: 'smtp.gmail.com', port: 587, enableStartTls: true, auth: true, username: 'user@example.com', password: 'app-password',
  defaultEncoding: 'UTF-8', addressToTest: 'test@example.com', from: 'noreply@example.com', additionalProperties: [],
}
export const CRUD_DATABASE = {
  ...common('database', 'my-db-connection', 'PostgreSQL database connection'),
  host: 'localhost', port: 5432, databaseName: 'mydb', username: 'dbuser', password: 'dbpassword', driverClassName: 'org.postgresql.Driver', jdbcUrl: 'jdbc:postgresql://localhost:5432/mydb',
}
export const CRUD_KAFKA = {
  ...common('kafka', 'my-kafka-connection', 'Kafka connection for event streaming'),
  topicName: 'events', bootstrapServers: 'localhost:9092', keyStoreName: 'my-keystore', trustStoreName: 'my-truststore',
}
export const KAFKA = {
  ...common('kafka', 'my-kafka-connection', 'Kafka connection for event streaming'),
  topicName: 'events',
  propertiesMap: {
    'bootstrap.servers': { value: 'localhost:9092', valueType: 'STRING' },
    'key.serializer': { value: 'org.apache.kafka.common.serialization.StringSerializer', valueType: 'STRING' },
    'value.serializer': { value: 'org.apache.kafka.common.serialization.StringSerializer', valueType: 'STRING' },
    'max.block.ms': { value: '3000', valueType: 'INTEGER' },
    acks: { value: 'all', valueType: 'STRING' },
    retries: { value: '3', valueType: 'INTEGER' },
  },
  enableSecure: false, protocolTypes: [], keyStoreName: null, trustStoreName: null,
}
export const DATABASE_MYSQL = {
  ...common('database', 'my-mysql-connection', 'MySQL database connection'),
  dbType: 'MYSQL', jdbcUrl: 'jdbc:mysql://localhost:3306/mydb?useSSL=false', useCredentials: true, username: 'dbuser', databaseName: 'mydb', password: 'dbpassword',
  initialPoolSize: 2, minPoolSize: 2, maxPoolSize: 10, incrementCount: 2, maxStatements: 200, idleConnectionTestPeriod: 30000, connectionTimeout: 30000,
  testConnectionOnCheckout: true, testConnectionOnCheckin: false, maxConnectionAge: 180000, maxIdleTime: 120000, selectedEnvironmentId: null,
}
export const DATABASE_ORACLE = { ...DATABASE_MYSQL, name: 'my-oracle-connection', description: 'Oracle database connection', dbType: 'ORACLE', jdbcUrl: 'jdbc:oracle:thin:@localhost:1521:ORCL', databaseName: 'ORCL', initialPoolSize: 1, minPoolSize: 1, maxPoolSize: 5, incrementCount: 1, maxStatements: 100 }
/** raw text: the page's examples carry "type" twice (the discriminator, then the access mode) */
export const ELASTICSEARCH_RAW = `{
  "type": "elasticsearch", "name": "my-elasticsearch-connection", "description": "Elasticsearch connection with authentication",
  "deployToWorker": true, "enabled": true, "administrate": true,
  "elasticHostList": [{ "scheme": "https", "host": "elasticsearch.example.com", "port": 9200 }],
  "authenticate": true, "elasticUsername": "elastic", "elasticPassword": "changeme",
  "encryptCommunication": false, "encryptCommunicationType": null, "disableHostnameVerification": false, "type": "READ_WRITE"
}`
export const ELASTICSEARCH_ILM = {
  ...common('elasticsearch', 'my-es-ilm', 'Elasticsearch connection with ILM and template'),
  administrate: true, elasticHostList: [{ scheme: 'http', host: 'localhost', port: 9200 }], authenticate: false, encryptCommunication: false,
  indexLifecyclePolicyCreated: true,
  indexLifecyclePolicy: {
    policyName: 'apinizer-log-ilm-policy', enableHotPhase: true, maxAgeOfRollover: 30, maxIndexSizeOfRollover: 30, maxDocCountOfRollover: 15000000, enableWarmPhase: true,
    numberOfReplicasForWarm: 0, maxNumShardsForShrink: 1, maxNumSegmentsForForceMerge: 1, enableColdPhase: true, minAgeOfCold: 90, numberOfReplicasForCold: 0,
    enableDeletePhase: true, minAgeOfDelete: 365,
  },
  indexTemplateCreated: true, indexTemplateName: 'apinizer-log-template', indexName: 'apinizer-logs', indexTemplateNumberOfShards: 1, indexTemplateNumberOfReplicas: 1,
  indexTemplateRefreshInterval: '1s', connectionTimeoutInMs: 5000, socketReuseAddress: true, socketKeepAlive: true, ioThreads: 1, maxConnectionPerHost: 10, maxConnectionTotal: 20,
}
export const LDAP = {
  ...common('ldap', 'my-ldap-connection', 'LDAP connection for authentication'),
  serverAddress: 'ldap://ldap.example.com:389', requireCertificateType: 'NOT_REQUIRED', username: 'cn=admin,dc=example,dc=com', password: 'adminpassword',
  customFilter: '(uid={0})', searchScope: 'SUBTREE', baseDn: 'dc=example,dc=com', certificateId: null, certificateName: null, useSsl: false, selectedEnvironmentId: null,
}
export const LDAP_SSL = { ...LDAP, name: 'my-ldap-ssl', description: 'LDAP connection with SSL', serverAddress: 'ldaps://ldap.example.com:636', requireCertificateType: 'REQUIRED_CN', certificateId: 'cert-id-123', certificateName: 'ldap-server-cert', useSsl: true }
export const FTP = {
  ...common('ftp', 'my-ftp-connection', 'FTP connection for file transfer'),
  host: 'ftp.example.com', port: 21, username: 'ftpuser', password: 'ftppassword', workingDir: '/uploads', protocol: 'FTP', timeout: 30000, retryCount: 3, useImplicit: false, useExplicit: false, sslProtocol: null,
}
export const FTPS_IMPLICIT = { ...FTP, name: 'my-ftps-implicit-connection', description: 'FTPS connection with implicit SSL', host: 'ftps.example.com', port: 990, username: 'ftpsuser', password: 'ftpspassword', protocol: 'FTPS', useImplicit: true, sslProtocol: 'TLS' }
export const RABBITMQ = {
  ...common('rabbitMq', 'my-rabbitmq-connection', 'RabbitMQ connection with authentication'),
  hostPortList: [{ host: 'rabbitmq.example.com', port: 5672 }], connectionFactoryVirtualHost: '/', authenticationEnabled: true, connectionFactoryUsername: 'guest', connectionFactoryPassword: 'guest',
  connectionFactoryConnectionTimeout: 60000, connectionFactoryClientProperties: { clientName: 'apinizer-client', version: '1.0' }, connectionFactoryRequestedChannelMax: 2047,
  connectionFactoryRequestedFrameMax: 0, connectionFactoryRequestedHeartbeat: 60, connectionFactoryUseSslProtocol: false, connectionFactorySslProtocol: 'TLSv1.2',
  channelExchange: 'my-exchange', channelRoutingKey: 'my-routing-key', basicPropertiesAppId: 'apinizer', basicPropertiesContentType: 'application/json', basicPropertiesContentEncoding: 'UTF-8',
  basicPropertiesDeliveryMode: 2, basicPropertiesPriority: 0, basicPropertiesReplyTo: null, basicPropertiesExpiration: null, basicPropertiesType: 'event', basicPropertiesUserId: null, basicPropertiesClusterId: null,
}
export const ACTIVEMQ = {
  ...common('activemq', 'my-activemq-connection', 'ActiveMQ connection for messaging'),
  activeMqConnectionProtocolType: 'TCP', brokerURL: 'tcp://activemq.example.com:61616', username: 'admin', password: 'admin123', destinationType: 'QUEUE', destinationName: 'apinizer.queue',
  sessionAcknowledgement: 'AUTO_ACKNOWLEDGE', sendTimeout: 60000, requestTimeout: 60000, closeTimeout: 60000, connectTimeout: 60000, contentType: 'application/json', clientID: 'apinizer-client-1', contentEncoding: 'UTF-8',
}
export const SNMP_V3 = {
  ...common('snmp', 'my-snmp-v3-secure', 'SNMP v3 with authentication and privacy'),
  version: 'V3', connectionString: 'udp:192.168.1.2/162', securityOrCommunityName: 'securityUser', retryCount: 3, timeout: 5000, messageType: 'TRAP', securityLevel: 'AUTH_PRIV',
  privacyProtocolList: ['PrivAES128', 'PrivAES256'], enableUserAuthentication: true, securityName: 'securityUser', usmUserAuthenticationProtocol: 'AuthSHA', authPassphrase: 'authPassword123',
  usmUserPrivacyProtocol: 'PrivAES128', privPassphrase: 'privPassword123', pduOidForMessage: '1.3.6.1.4.1.12345.1.1', pduOidForTime: '1.3.6.1.4.1.12345.1.2', pduVariableMap: { '1.3.6.1.4.1.12345.1.3': 'value1' },
}
export const SNMP_V1 = {
  ...common('snmp', 'my-snmp-connection', 'SNMP v1 trap connection'),
  version: 'V1', connectionString: 'udp:192.168.1.2/162', securityOrCommunityName: 'public', retryCount: 3, timeout: 5000, messageType: 'TRAP', securityLevel: null, privacyProtocolList: [],
  enableUserAuthentication: false, securityName: null, usmUserAuthenticationProtocol: null, authPassphrase: null, usmUserPrivacyProtocol: null, privPassphrase: null,
  pduOidForMessage: '1.3.6.1.4.1.12345.1.1', pduOidForTime: '1.3.6.1.4.1.12345.1.2', pduVariableMap: { '1.3.6.1.4.1.12345.1.3': 'value1', '1.3.6.1.4.1.12345.1.4': 'value2' },
}
export const LINUX_SCRIPT = { ...common('linuxscript', 'my-linux-script-connection', 'Linux script connection via SSH'), hostName: 'linux.example.com', sshPort: 22, username: 'apinizer', password: 'password123' }
export const GRAYLOG_TLS = {
  ...common('graylog', 'my-graylog-tls-connection', 'Graylog TCP connection with TLS encryption'),
  hostname: 'graylog.example.com', port: 12201, transportType: 'TCP', tlsEnabled: true, tlsCertVerificationEnabled: true, compressionType: 'ZLIB', gelfMessageLevel: 'WARNING', queueSize: 1024,
  reconnectDelay: 5000, connectTimeout: 15000, tcpNoDelay: true, tcpKeepAlive: true, sendBufferSize: 65536, maxInflightSends: 1024, threads: 2,
  tlsTrustCertChainFile: 'base64-encoded-certificate-content', tlsTrustCertChainFileName: 'graylog-ca.crt', appendToAttributes: true, appendToMessage: true,
}
export const SYSLOG = {
  ...common('syslog', 'my-syslog-connection', 'Syslog connection for logging'),
  syslogProtocolType: 'UDP', syslogMessageHostname: 'apinizer.example.com', syslogServerHostname: 'syslog.example.com', syslogPort: 514, syslogTimeout: 500, syslogMessageFormat: 'RFC_3164',
  syslogAppName: 'Apinizer', syslogFacility: 'AUDIT', syslogSeverity: 'INFORMATIONAL', syslogSslEnabled: false,
}
export const WEBHOOK = {
  ...common('webhook', 'my-webhook-connection', 'Webhook connection for notifications'),
  httpMethod: 'POST', fullUrl: 'https://webhook.example.com/api/notify', headerList: [{ name: 'Content-Type', value: 'application/json' }], timeout: 5, connectionPoolMaxConnectionPerHost: 24, connectionPoolMaxConnectionTotal: 48,
}
export const LOGBACK = {
  ...common('logback', 'my-logback-connection', 'Logback connection for file logging'),
  logPath: '/var/log/apinizer/', logFileName: 'ApinizerApiProxyTraffic', logPodName: '', logFilenamePattern: '%d{yyyy-MM-dd}.%i.log', logPattern: '%d{yyyy-MM-dd HH:mm:ss.SSS}[%m]%n', maxFileSize: 25, maxHistory: 30, totalSizeCap: 10,
}
