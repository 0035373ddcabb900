/** LimitPlan.scope of the installation-wide (platform) catalog, addressed through project `admin`. */
export const PLATFORM_SCOPE = 'platform'
