/** The JSON body of a response, for assertions (fetch types it as unknown). */
export const jsonOf = (res: Response): Promise<any> => res.json()
